// Loopback stand-in for the OpenAI HTTP API (/embeddings, /chat/completions) that records each request.
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, vi } from "vitest";

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
}

export interface FakeFailure {
  status: number;
  headers?: Record<string, string>;
  /** JSON body; default an OpenAI-style `{ error: { message, type, code } }`. */
  body?: unknown;
}

export type FakeEmbedder = (texts: string[], dimensions: number) => Float32Array[] | Promise<Float32Array[]>;

export interface FakeOpenAIServer {
  /** Origin, e.g. http://127.0.0.1:43121 */
  readonly origin: string;
  /** `${origin}/v1`, what the SDK takes as baseURL. */
  readonly baseURL: string;
  readonly requests: RecordedRequest[];
  embeddingRequests(): RecordedRequest[];
  /** "requested" (default) answers as the request asked; otherwise always this encoding. */
  answerEncoding(encoding: "requested" | "float" | "base64"): void;
  /** List `data` in reverse index order, as servers may. */
  reverseOrder(on: boolean): void;
  setEmbedder(embedder: FakeEmbedder): void;
  setChatReply(reply: (body: Record<string, unknown>) => string): void;
  failNext(failure: FakeFailure, times?: number): void;
  delayNext(ms: number, times?: number): void;
  /** Forget recorded requests and every per-test setting (encoding, order, replies, failures). */
  reset(): void;
  close(): Promise<void>;
}

/** Deterministic, distinct per text: enough to check decoding and order. */
export const defaultEmbedder: FakeEmbedder = (texts, dimensions) =>
  texts.map((text) => {
    let seed = 0;
    for (const ch of text) seed = (seed * 31 + (ch.codePointAt(0) ?? 0)) % 1_000_003;
    return Float32Array.from({ length: dimensions }, (_, i) => ((seed + i * 7919) % 2000) / 1000 - 1);
  });

const defaultChatReply = (body: Record<string, unknown>) => `echo: ${JSON.stringify(body.messages)}`;

/** One fake for a test file: closed after the file, reset (and env stubs undone) after each test. */
export async function useFakeOpenAIServer(): Promise<FakeOpenAIServer> {
  const fake = await startFakeOpenAIServer();
  afterAll(() => fake.close());
  afterEach(() => {
    fake.reset();
    vi.unstubAllEnvs();
  });
  return fake;
}

export async function startFakeOpenAIServer(): Promise<FakeOpenAIServer> {
  const requests: RecordedRequest[] = [];
  const failures: FakeFailure[] = [];
  const delays: number[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let encoding: "requested" | "float" | "base64" = "requested";
  let reverse = false;
  let embedder: FakeEmbedder = defaultEmbedder;
  let chatReply = defaultChatReply;

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      const body = (text.length > 0 ? JSON.parse(text) : {}) as Record<string, unknown>;
      const path = req.url ?? "/";
      requests.push({ method: req.method ?? "GET", path, headers: req.headers, body });
      const answer = () => {
        const failure = failures.shift();
        if (failure !== undefined) return sendFailure(res, failure);
        if (req.method === "POST" && path.endsWith("/embeddings")) {
          return void embeddings(res, body).catch((error: Error) =>
            sendJson(res, 500, { error: { message: error.message, type: "server_error" } }),
          );
        }
        if (req.method === "POST" && path.endsWith("/chat/completions")) return chat(res, body);
        return sendJson(res, 404, { error: { message: `no route ${path}`, type: "invalid_request_error" } });
      };
      const delay = delays.shift() ?? 0;
      if (delay === 0) return answer();
      const timer = setTimeout(() => {
        timers.delete(timer);
        if (!res.destroyed) answer();
      }, delay);
      timers.add(timer);
    });
  });

  async function embeddings(res: ServerResponse, body: Record<string, unknown>): Promise<void> {
    const input = typeof body.input === "string" ? [body.input] : (body.input as string[]);
    const dimensions = typeof body.dimensions === "number" ? body.dimensions : 1536;
    const vectors = await embedder(input, dimensions);
    const base64 = encoding === "base64" || (encoding === "requested" && body.encoding_format === "base64");
    const data = vectors.map((vector, index) => ({
      object: "embedding",
      index,
      embedding: base64 ? toBase64(vector) : Array.from(vector),
    }));
    if (reverse) data.reverse();
    const tokens = input.reduce((sum, t) => sum + Math.ceil(t.length / 4), 0);
    sendJson(res, 200, {
      object: "list",
      data,
      model: body.model,
      usage: { prompt_tokens: tokens, total_tokens: tokens },
    });
  }

  function chat(res: ServerResponse, body: Record<string, unknown>): void {
    sendJson(res, 200, {
      id: `chatcmpl-${requests.length}`,
      object: "chat.completion",
      created: 1_700_000_000,
      model: body.model,
      choices: [
        {
          index: 0,
          message: { role: "assistant", content: chatReply(body), refusal: null },
          logprobs: null,
          finish_reason: "stop",
        },
      ],
      usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
    });
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;

  return {
    origin,
    baseURL: `${origin}/v1`,
    requests,
    embeddingRequests: () => requests.filter((r) => r.path.endsWith("/embeddings")),
    answerEncoding: (value) => {
      encoding = value;
    },
    reverseOrder: (on) => {
      reverse = on;
    },
    setEmbedder: (value) => {
      embedder = value;
    },
    setChatReply: (value) => {
      chatReply = value;
    },
    failNext: (failure, times = 1) => {
      for (let i = 0; i < times; i++) failures.push(failure);
    },
    delayNext: (ms, times = 1) => {
      for (let i = 0; i < times; i++) delays.push(ms);
    },
    reset: () => {
      requests.length = 0;
      failures.length = 0;
      delays.length = 0;
      encoding = "requested";
      reverse = false;
      embedder = defaultEmbedder;
      chatReply = defaultChatReply;
    },
    close: async () => {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve())));
    },
  };
}

function sendFailure(res: ServerResponse, failure: FakeFailure): void {
  const body = failure.body ?? {
    error: { message: `fake failure ${failure.status}`, type: "api_error", param: null, code: null },
  };
  sendJson(res, failure.status, body, failure.headers);
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}

/** Little-endian float32 bytes, as OpenAI's `encoding_format: "base64"` answers. */
export function toBase64(vector: Float32Array): string {
  const bytes = Buffer.alloc(vector.length * 4);
  for (const [i, x] of vector.entries()) bytes.writeFloatLE(x, i * 4);
  return bytes.toString("base64");
}
