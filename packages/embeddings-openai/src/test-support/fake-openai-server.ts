// Loopback stand-in for the OpenAI HTTP API (/embeddings, /chat/completions, and the Batch API's
// /files and /batches) that records each request.
import type { IncomingHttpHeaders } from "node:http";
import {
  type LoopbackReply,
  type LoopbackRequest,
  readJsonBody,
  startLoopbackServer,
} from "@claw/provider-utils/test-server";
import { afterAll, afterEach, vi } from "vitest";
import {
  createFakeBatchApi,
  type FakeBatchScript,
  notFound,
  type UploadedFile,
} from "./fake-openai-batches.js";

export type { FakeBatchScript, FakeLineError, UploadedFile } from "./fake-openai-batches.js";

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
  /** Requests of the Batch API: /files and /batches. */
  batchApiRequests(): RecordedRequest[];
  /** The next `times` batch jobs follow `script` (afterwards: complete at the first poll). */
  scriptNextBatch(script: FakeBatchScript, times?: number): void;
  /** Files uploaded to /v1/files, with their text. */
  uploadedFiles(): UploadedFile[];
  /** Ids passed to DELETE /v1/files/:id. */
  deletedFiles(): string[];
  /** Ids of the files the server holds now (uploaded or written by a batch, not deleted). */
  storedFiles(): string[];
  /** Requests with this method whose path is `path` or matches it. */
  countRequests(method: string, path: string | RegExp): number;
  /** A batch's status as the server keeps it; undefined for an unknown id. */
  batchStatus(id: string): string | undefined;
  /** Lets a batch scripted with `hold` end (at its next poll, by default). */
  releaseBatch(id: string): void;
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
  let encoding: "requested" | "float" | "base64" = "requested";
  let reverse = false;
  let embedder: FakeEmbedder = defaultEmbedder;
  let chatReply = defaultChatReply;

  async function embeddingsBody(body: Record<string, unknown>): Promise<Record<string, unknown>> {
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
    return {
      object: "list",
      data,
      model: body.model,
      usage: { prompt_tokens: tokens, total_tokens: tokens },
    };
  }

  const batchApi = createFakeBatchApi(embeddingsBody);

  async function route(recorded: RecordedRequest, request: LoopbackRequest): Promise<LoopbackReply> {
    const { method, path, body } = recorded;
    const pathname = request.pathname;
    if (method === "POST" && pathname.endsWith("/embeddings")) return { body: await embeddingsBody(body) };
    if (method === "POST" && pathname.endsWith("/chat/completions")) return { body: chat(body) };
    const { file } = await readBody(request);
    return (await batchApi.route(method, pathname, body, file)) ?? notFound(`no route ${method} ${path}`);
  }

  function chat(body: Record<string, unknown>): Record<string, unknown> {
    return {
      id: `chatcmpl-${server.requests.length}`,
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
    };
  }

  const server = await startLoopbackServer<RecordedRequest>({
    record: async (request) => ({
      method: request.method,
      path: request.url,
      headers: request.headers,
      body: (await readBody(request)).body,
    }),
    handle: route,
    onError: (error) => ({
      status: 500,
      body: {
        error: { message: error instanceof Error ? error.message : String(error), type: "server_error" },
      },
    }),
  });
  const { origin, requests } = server;

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
    failNext: (failure, times) => server.failNext(failureReply(failure), times),
    delayNext: (ms, times) => server.delayNext(ms, times),
    batchApiRequests: () => requests.filter((r) => /^\/v1\/(files|batches)\b/.test(r.path)),
    scriptNextBatch: batchApi.scriptNextBatch,
    uploadedFiles: batchApi.uploadedFiles,
    deletedFiles: batchApi.deletedFiles,
    storedFiles: batchApi.storedFiles,
    countRequests: (method, path) =>
      requests.filter(
        (r) => r.method === method && (typeof path === "string" ? r.path === path : path.test(r.path)),
      ).length,
    batchStatus: batchApi.batchStatus,
    releaseBatch: batchApi.releaseBatch,
    reset: () => {
      // A delayed answer belongs to the test that asked for it, never to the next one.
      server.reset();
      encoding = "requested";
      reverse = false;
      embedder = defaultEmbedder;
      chatReply = defaultChatReply;
      batchApi.reset();
    },
    close: () => server.close(),
  };
}

/** JSON bodies parsed; a multipart upload (POST /v1/files) read as its fields and file. */
async function readBody(
  request: LoopbackRequest,
): Promise<{ body: Record<string, unknown>; file?: UploadedFile }> {
  const contentType = request.headers["content-type"];
  if (!contentType?.startsWith("multipart/form-data")) return { body: readJsonBody(request.raw) };
  const form = await new Response(new Uint8Array(request.raw), {
    headers: { "content-type": contentType },
  }).formData();
  const upload = form.get("file");
  const purpose = String(form.get("purpose"));
  if (!(upload instanceof Blob)) return { body: { purpose } };
  const filename = upload instanceof File ? upload.name : "blob";
  const text = await upload.text();
  return {
    body: { purpose, file: { filename, type: upload.type, bytes: upload.size } },
    file: { id: "", filename, purpose, text },
  };
}

function failureReply(failure: FakeFailure): LoopbackReply {
  const body = failure.body ?? {
    error: { message: `fake failure ${failure.status}`, type: "api_error", param: null, code: null },
  };
  return { status: failure.status, body, ...(failure.headers ? { headers: failure.headers } : {}) };
}

/** Little-endian float32 bytes, as OpenAI's `encoding_format: "base64"` answers. */
export function toBase64(vector: Float32Array): string {
  const bytes = Buffer.alloc(vector.length * 4);
  for (const [i, x] of vector.entries()) bytes.writeFloatLE(x, i * 4);
  return bytes.toString("base64");
}
