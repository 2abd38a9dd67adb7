// Loopback stand-in for the OpenAI HTTP API (/embeddings, /chat/completions, and the Batch API's
// /files and /batches) that records each request.
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

/** How the next batch job behaves. */
export interface FakeBatchScript {
  /** The poll (GET /v1/batches/:id) that first sees the job finished; earlier ones see "in_progress". Default 1. */
  completeAfterPolls?: number;
  /** How the job ends. Default "completed". */
  outcome?: "completed" | "failed" | "expired" | "cancelled";
  /** A failed request line: the error it gets (it goes to the error file, or the output file). */
  lineError?: (line: { customId: string; input: string[] }) => FakeLineError | undefined;
  /** Where failed lines go: the error file (default, as OpenAI does) or the output file, counted as completed. */
  failedLinesIn?: "error-file" | "output-file";
  /** Called at each poll before it is answered (e.g. to change data while the job "runs"). */
  onPoll?: (poll: number) => void | Promise<void>;
  /** Polls see "in_progress" until `releaseBatch(id)`; then it ends as `completeAfterPolls` says. */
  hold?: boolean;
}

export interface FakeLineError {
  status: number;
  message: string;
  code?: string;
}

export interface UploadedFile {
  id: string;
  filename: string;
  purpose: string;
  text: string;
}

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
  const requests: RecordedRequest[] = [];
  const failures: FakeFailure[] = [];
  const delays: number[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let encoding: "requested" | "float" | "base64" = "requested";
  let reverse = false;
  let embedder: FakeEmbedder = defaultEmbedder;
  let chatReply = defaultChatReply;
  const files = new Map<string, UploadedFile>();
  const uploads: UploadedFile[] = [];
  const deleted: string[] = [];
  const batches = new Map<string, FakeBatch>();
  const scripts: FakeBatchScript[] = [];
  let nextId = 1;

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      void readBody(req.headers["content-type"], Buffer.concat(chunks)).then(({ body, file }) => {
        const path = req.url ?? "/";
        const method = req.method ?? "GET";
        requests.push({ method, path, headers: req.headers, body });
        const answer = () => {
          const failure = failures.shift();
          if (failure !== undefined) return sendFailure(res, failure);
          route(method, path, body, file, res).catch((error: Error) =>
            sendJson(res, 500, { error: { message: error.message, type: "server_error" } }),
          );
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
  });

  async function route(
    method: string,
    path: string,
    body: Record<string, unknown>,
    file: UploadedFile | undefined,
    res: ServerResponse,
  ): Promise<void> {
    const pathname = new URL(path, "http://fake").pathname;
    if (method === "POST" && pathname.endsWith("/embeddings")) {
      return sendJson(res, 200, await embeddingsBody(body));
    }
    if (method === "POST" && pathname.endsWith("/chat/completions")) return chat(res, body);
    if (method === "POST" && pathname === "/v1/files") return createFile(res, file);
    const fileMatch = /^\/v1\/files\/([^/]+)(\/content)?$/.exec(pathname);
    if (fileMatch !== null) {
      const id = fileMatch[1] as string;
      const stored = files.get(id);
      if (stored === undefined) return notFound(res, `no file ${id}`);
      if (method === "GET" && fileMatch[2] !== undefined) {
        res.writeHead(200, { "content-type": "application/octet-stream" });
        return void res.end(stored.text);
      }
      if (method === "DELETE" && fileMatch[2] === undefined) {
        files.delete(id);
        deleted.push(id);
        return sendJson(res, 200, { id, object: "file", deleted: true });
      }
    }
    if (method === "POST" && pathname === "/v1/batches") return createBatch(res, body);
    const batchMatch = /^\/v1\/batches\/([^/]+)(\/cancel)?$/.exec(pathname);
    if (batchMatch !== null) {
      const batch = batches.get(batchMatch[1] as string);
      if (batch === undefined) return notFound(res, `no batch ${batchMatch[1]}`);
      if (method === "GET" && batchMatch[2] === undefined) return pollBatch(res, batch);
      if (method === "POST" && batchMatch[2] !== undefined) {
        if (!TERMINAL_BATCH_STATES.has(batch.status)) batch.status = "cancelling";
        return sendJson(res, 200, batchJson(batch));
      }
    }
    return notFound(res, `no route ${method} ${path}`);
  }

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

  function storeFile(filename: string, purpose: string, text: string): UploadedFile {
    const stored = { id: `file-${nextId++}`, filename, purpose, text };
    files.set(stored.id, stored);
    return stored;
  }

  function createFile(res: ServerResponse, file: UploadedFile | undefined): void {
    if (file === undefined) {
      badRequest(res, "expected a multipart upload with file and purpose");
      return;
    }
    const stored = storeFile(file.filename, file.purpose, file.text);
    uploads.push(stored);
    sendJson(res, 200, {
      id: stored.id,
      object: "file",
      bytes: Buffer.byteLength(stored.text),
      created_at: 1_700_000_000,
      filename: stored.filename,
      purpose: stored.purpose,
      status: "processed",
    });
  }

  function createBatch(res: ServerResponse, body: Record<string, unknown>): void {
    const input = files.get(String(body.input_file_id));
    if (input === undefined) {
      badRequest(res, `no input file ${String(body.input_file_id)}`);
      return;
    }
    if (body.endpoint !== "/v1/embeddings" || body.completion_window !== "24h") {
      badRequest(res, "this fake runs /v1/embeddings batches with completion_window 24h only");
      return;
    }
    const script = scripts.shift() ?? {};
    const batch: FakeBatch = {
      id: `batch_${nextId++}`,
      inputFileId: input.id,
      status: "validating",
      polls: 0,
      script,
      held: script.hold === true,
      counts: { total: 0, completed: 0, failed: 0 },
    };
    batches.set(batch.id, batch);
    sendJson(res, 200, batchJson(batch));
  }

  async function pollBatch(res: ServerResponse, batch: FakeBatch): Promise<void> {
    batch.polls++;
    await batch.script.onPoll?.(batch.polls);
    if (batch.status === "cancelling") batch.status = "cancelled";
    else if (!TERMINAL_BATCH_STATES.has(batch.status)) {
      if (!batch.held && batch.polls >= (batch.script.completeAfterPolls ?? 1)) await finish(batch);
      else batch.status = "in_progress";
    }
    sendJson(res, 200, batchJson(batch));
  }

  async function finish(batch: FakeBatch): Promise<void> {
    const outcome = batch.script.outcome ?? "completed";
    if (outcome === "failed") {
      batch.status = "failed";
      batch.errors = [{ code: "invalid_request", message: "fake validation failure", line: 1, param: null }];
      return;
    }
    if (outcome !== "completed") {
      batch.status = outcome;
      return;
    }
    const lines = (files.get(batch.inputFileId)?.text ?? "")
      .split("\n")
      .filter((line) => line.trim() !== "")
      .map((line) => JSON.parse(line) as { custom_id: string; body: Record<string, unknown> });
    const output: string[] = [];
    const errors: string[] = [];
    for (const [index, line] of lines.entries()) {
      const id = `batch_req_${index}`;
      const failure = batch.script.lineError?.({
        customId: line.custom_id,
        input: line.body.input as string[],
      });
      if (failure !== undefined) {
        const failed = {
          id,
          custom_id: line.custom_id,
          response: {
            status_code: failure.status,
            request_id: `req_${index}`,
            body: {
              error: { message: failure.message, type: "invalid_request_error", code: failure.code ?? null },
            },
          },
          error: null,
        };
        if (batch.script.failedLinesIn === "output-file") {
          // As a server would that lists a failed request among the completed ones.
          output.push(JSON.stringify(failed));
          batch.counts.completed++;
        } else {
          errors.push(JSON.stringify(failed));
          batch.counts.failed++;
        }
        continue;
      }
      const body = await embeddingsBody(line.body);
      output.push(
        JSON.stringify({
          id,
          custom_id: line.custom_id,
          response: { status_code: 200, request_id: `req_${index}`, body },
          error: null,
        }),
      );
      batch.counts.completed++;
    }
    batch.counts.total = lines.length;
    if (output.length > 0)
      batch.outputFileId = storeFile("batch_output.jsonl", "batch_output", `${output.join("\n")}\n`).id;
    if (errors.length > 0)
      batch.errorFileId = storeFile("batch_errors.jsonl", "batch_output", `${errors.join("\n")}\n`).id;
    batch.status = "completed";
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
    batchApiRequests: () => requests.filter((r) => /^\/v1\/(files|batches)\b/.test(r.path)),
    scriptNextBatch: (script, times = 1) => {
      for (let i = 0; i < times; i++) scripts.push(script);
    },
    uploadedFiles: () => [...uploads],
    deletedFiles: () => [...deleted],
    storedFiles: () => [...files.keys()],
    countRequests: (method, path) =>
      requests.filter(
        (r) => r.method === method && (typeof path === "string" ? r.path === path : path.test(r.path)),
      ).length,
    batchStatus: (id) => batches.get(id)?.status,
    releaseBatch: (id) => {
      const batch = batches.get(id);
      if (batch === undefined) throw new Error(`fake: no batch ${id} to release`);
      batch.held = false;
    },
    reset: () => {
      // A delayed answer belongs to the test that asked for it, never to the next one.
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      requests.length = 0;
      failures.length = 0;
      delays.length = 0;
      encoding = "requested";
      reverse = false;
      embedder = defaultEmbedder;
      chatReply = defaultChatReply;
      files.clear();
      uploads.length = 0;
      deleted.length = 0;
      batches.clear();
      scripts.length = 0;
      nextId = 1;
    },
    close: async () => {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve())));
    },
  };
}

const TERMINAL_BATCH_STATES = new Set(["completed", "failed", "expired", "cancelled"]);

interface FakeBatch {
  id: string;
  inputFileId: string;
  status: string;
  polls: number;
  script: FakeBatchScript;
  /** Scripted with `hold` and not yet released. */
  held: boolean;
  counts: { total: number; completed: number; failed: number };
  outputFileId?: string;
  errorFileId?: string;
  errors?: Array<{ code: string; message: string; line: number | null; param: string | null }>;
}

/** A Batch object as GET /v1/batches/:id answers it. */
function batchJson(batch: FakeBatch): Record<string, unknown> {
  return {
    id: batch.id,
    object: "batch",
    endpoint: "/v1/embeddings",
    errors: batch.errors === undefined ? null : { object: "list", data: batch.errors },
    input_file_id: batch.inputFileId,
    completion_window: "24h",
    status: batch.status,
    output_file_id: batch.outputFileId ?? null,
    error_file_id: batch.errorFileId ?? null,
    created_at: 1_700_000_000,
    request_counts: batch.counts,
    metadata: null,
  };
}

/** JSON bodies parsed; a multipart upload (POST /v1/files) read as its fields and file. */
async function readBody(
  contentType: string | undefined,
  raw: Buffer,
): Promise<{ body: Record<string, unknown>; file?: UploadedFile }> {
  if (contentType?.startsWith("multipart/form-data")) {
    const form = await new Response(new Uint8Array(raw), {
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
  const text = raw.toString("utf8");
  return { body: (text.length > 0 ? JSON.parse(text) : {}) as Record<string, unknown> };
}

function notFound(res: ServerResponse, message: string): void {
  sendJson(res, 404, { error: { message, type: "invalid_request_error" } });
}

function badRequest(res: ServerResponse, message: string): void {
  sendJson(res, 400, { error: { message, type: "invalid_request_error" } });
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
