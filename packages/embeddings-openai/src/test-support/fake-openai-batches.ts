// The Batch API half of the OpenAI fake: /v1/files (upload, content, delete) and /v1/batches
// (create, poll, cancel), with scripted outcomes and batches held running until released.
import type { LoopbackReply } from "@claw/provider-utils/test-server";

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

/** Answers one embeddings request body (shared with POST /v1/embeddings). */
type EmbeddingsBody = (body: Record<string, unknown>) => Promise<Record<string, unknown>>;

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

const TERMINAL_BATCH_STATES = new Set(["completed", "failed", "expired", "cancelled"]);

export function createFakeBatchApi(embeddingsBody: EmbeddingsBody) {
  const files = new Map<string, UploadedFile>();
  const uploads: UploadedFile[] = [];
  const deleted: string[] = [];
  const batches = new Map<string, FakeBatch>();
  const scripts: FakeBatchScript[] = [];
  let nextId = 1;

  function storeFile(filename: string, purpose: string, text: string): UploadedFile {
    const stored = { id: `file-${nextId++}`, filename, purpose, text };
    files.set(stored.id, stored);
    return stored;
  }

  function createFile(file: UploadedFile | undefined): LoopbackReply {
    if (file === undefined) return badRequest("expected a multipart upload with file and purpose");
    const stored = storeFile(file.filename, file.purpose, file.text);
    uploads.push(stored);
    const { id, filename, purpose, text } = stored;
    const bytes = Buffer.byteLength(text);
    return {
      body: { id, object: "file", bytes, created_at: 1_700_000_000, filename, purpose, status: "processed" },
    };
  }

  function createBatch(body: Record<string, unknown>): LoopbackReply {
    const input = files.get(String(body.input_file_id));
    if (input === undefined) return badRequest(`no input file ${String(body.input_file_id)}`);
    if (body.endpoint !== "/v1/embeddings" || body.completion_window !== "24h") {
      return badRequest("this fake runs /v1/embeddings batches with completion_window 24h only");
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
    return { body: batchJson(batch) };
  }

  async function pollBatch(batch: FakeBatch): Promise<LoopbackReply> {
    batch.polls++;
    await batch.script.onPoll?.(batch.polls);
    if (batch.status === "cancelling") batch.status = "cancelled";
    else if (!TERMINAL_BATCH_STATES.has(batch.status)) {
      if (!batch.held && batch.polls >= (batch.script.completeAfterPolls ?? 1)) await finish(batch);
      else batch.status = "in_progress";
    }
    return { body: batchJson(batch) };
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
      const customId = line.custom_id;
      const failure = batch.script.lineError?.({ customId, input: line.body.input as string[] });
      if (failure === undefined) {
        const body = await embeddingsBody(line.body);
        const response = { status_code: 200, request_id: `req_${index}`, body };
        output.push(JSON.stringify({ id, custom_id: customId, response, error: null }));
        batch.counts.completed++;
        continue;
      }
      const error = { message: failure.message, type: "invalid_request_error", code: failure.code ?? null };
      const response = { status_code: failure.status, request_id: `req_${index}`, body: { error } };
      const failed = JSON.stringify({ id, custom_id: customId, response, error: null });
      if (batch.script.failedLinesIn === "output-file") {
        // As a server would that lists a failed request among the completed ones.
        output.push(failed);
        batch.counts.completed++;
      } else {
        errors.push(failed);
        batch.counts.failed++;
      }
    }
    batch.counts.total = lines.length;
    if (output.length > 0)
      batch.outputFileId = storeFile("batch_output.jsonl", "batch_output", `${output.join("\n")}\n`).id;
    if (errors.length > 0)
      batch.errorFileId = storeFile("batch_errors.jsonl", "batch_output", `${errors.join("\n")}\n`).id;
    batch.status = "completed";
  }

  /** The answer for a Batch API route; undefined for any other path. */
  async function route(
    method: string,
    pathname: string,
    body: Record<string, unknown>,
    file: UploadedFile | undefined,
  ): Promise<LoopbackReply | undefined> {
    if (method === "POST" && pathname === "/v1/files") return createFile(file);
    const fileMatch = /^\/v1\/files\/([^/]+)(\/content)?$/.exec(pathname);
    if (fileMatch !== null) {
      const id = fileMatch[1] as string;
      const stored = files.get(id);
      if (stored === undefined) return notFound(`no file ${id}`);
      if (method === "GET" && fileMatch[2] !== undefined) {
        return { body: stored.text, headers: { "content-type": "application/octet-stream" } };
      }
      if (method === "DELETE" && fileMatch[2] === undefined) {
        files.delete(id);
        deleted.push(id);
        return { body: { id, object: "file", deleted: true } };
      }
    }
    if (method === "POST" && pathname === "/v1/batches") return createBatch(body);
    const batchMatch = /^\/v1\/batches\/([^/]+)(\/cancel)?$/.exec(pathname);
    if (batchMatch === null) return undefined;
    const batch = batches.get(batchMatch[1] as string);
    if (batch === undefined) return notFound(`no batch ${batchMatch[1]}`);
    if (method === "GET" && batchMatch[2] === undefined) return pollBatch(batch);
    if (method === "POST" && batchMatch[2] !== undefined) {
      if (!TERMINAL_BATCH_STATES.has(batch.status)) batch.status = "cancelling";
      return { body: batchJson(batch) };
    }
    return undefined;
  }

  return {
    route,
    scriptNextBatch(script: FakeBatchScript, times = 1) {
      for (let i = 0; i < times; i++) scripts.push(script);
    },
    uploadedFiles: () => [...uploads],
    deletedFiles: () => [...deleted],
    storedFiles: () => [...files.keys()],
    batchStatus: (id: string) => batches.get(id)?.status,
    releaseBatch(id: string) {
      const batch = batches.get(id);
      if (batch === undefined) throw new Error(`fake: no batch ${id} to release`);
      batch.held = false;
    },
    reset() {
      files.clear();
      uploads.length = 0;
      deleted.length = 0;
      batches.clear();
      scripts.length = 0;
      nextId = 1;
    },
  };
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

export function notFound(message: string): LoopbackReply {
  return { status: 404, body: { error: { message, type: "invalid_request_error" } } };
}

function badRequest(message: string): LoopbackReply {
  return { status: 400, body: { error: { message, type: "invalid_request_error" } } };
}
