// A loopback Gemini API (`/v1beta/models/{model}:batchEmbedContents|embedContent|generateContent`,
// and batch mode: `:asyncBatchEmbedContent`, `batches/{id}`, `batches/{id}:cancel`) for driving the
// real @google/genai SDK in tests: records requests, fails or delays on demand, holds batches running
// until released.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordedRequest {
  method: string;
  path: string;
  /** The `{model}:{method}` part after `/v1beta/models/`. */
  model: string;
  action: string;
  headers: Record<string, string | string[] | undefined>;
  body: Record<string, unknown>;
}

export interface EmbedRequest {
  text: string;
  taskType?: string;
  outputDimensionality?: number;
}

export interface FakeFailure {
  status: number;
  /** JSON body; default a google.rpc.Status for the status. */
  body?: unknown;
  headers?: Record<string, string>;
}

export interface FakeGeminiOptions {
  /** Vector for one input; default a deterministic, unnormalised vector of the requested size. */
  embed?: (request: EmbedRequest) => number[] | Promise<number[]>;
  /** Answer to a generateContent body; default echoes the prompt. */
  generate?: (body: Record<string, unknown>) => string;
}

/** How the next batch job (`:asyncBatchEmbedContent`) behaves. */
export interface FakeGeminiBatchScript {
  /** The poll (GET batches/{id}) that first sees the job finished; earlier ones see RUNNING. Default 1. */
  completeAfterPolls?: number;
  /** How the job ends. Default "succeeded". */
  outcome?: "succeeded" | "failed" | "cancelled" | "expired";
  /** A failed request: the google.rpc.Status its answer carries instead of an embedding. */
  itemError?: (request: EmbedRequest, index: number) => { code: number; message: string } | undefined;
  /** Called at each poll before it is answered. */
  onPoll?: (poll: number) => void | Promise<void>;
  /** Stays JOB_STATE_RUNNING (whatever completeAfterPolls says) until releaseBatch(name); then it goes on. */
  holdUntilReleased?: boolean;
}

/** A batch as the fake holds it (a copy). */
export interface FakeBatchView {
  /** `batches/fake{n}`, numbered from 1 in creation order. */
  name: string;
  /** BATCH_STATE_* (the SDK reports it as JOB_STATE_*). */
  state: string;
  /** GET batches/{id} answered so far. */
  polls: number;
}

export interface FakeGeminiServer {
  /** Root URL (no API version), for `baseURL`. */
  readonly url: string;
  readonly requests: RecordedRequest[];
  failNext(count: number, failure: FakeFailure): void;
  /** The next `times` batch jobs follow `script` (afterwards: succeed at the first poll). */
  scriptNextBatch(script: FakeGeminiBatchScript, times?: number): void;
  /** Delay the next `count` responses by `ms`. */
  delayNext(count: number, ms: number): void;
  /** The batches created so far, in creation order. */
  batches(): FakeBatchView[];
  /** Lets a batch scripted with holdUntilReleased go on at its next poll. */
  releaseBatch(name: string): void;
  close(): Promise<void>;
}

const STATUS_NAMES: Record<number, string> = {
  400: "INVALID_ARGUMENT",
  401: "UNAUTHENTICATED",
  403: "PERMISSION_DENIED",
  404: "NOT_FOUND",
  429: "RESOURCE_EXHAUSTED",
  500: "INTERNAL",
  503: "UNAVAILABLE",
};

export function defaultFakeVector({ text, outputDimensionality }: EmbedRequest): number[] {
  const size = outputDimensionality ?? 3072;
  let seed = 7;
  for (const char of text) seed = (seed * 31 + (char.codePointAt(0) ?? 0)) % 1_000_003;
  return Array.from({ length: size }, (_, i) => (((seed + i * 7919) % 1000) + 1) / 100);
}

export async function startFakeGeminiServer(options: FakeGeminiOptions = {}): Promise<FakeGeminiServer> {
  const requests: RecordedRequest[] = [];
  const failures: FakeFailure[] = [];
  const delays: number[] = [];
  const embed = options.embed ?? defaultFakeVector;
  const batches = new Map<string, FakeBatch>();
  const scripts: FakeGeminiBatchScript[] = [];
  let nextBatch = 1;

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString("utf8");
    const path = new URL(req.url ?? "/", "http://127.0.0.1").pathname;
    const match = /^\/v1beta\/models\/([^/:]+):(\w+)$/.exec(path);
    const body = raw === "" ? {} : (JSON.parse(raw) as Record<string, unknown>);
    requests.push({
      method: req.method ?? "",
      path,
      model: match?.[1] ?? "",
      action: match?.[2] ?? "",
      headers: req.headers,
      body,
    });

    const delay = delays.shift();
    if (delay !== undefined) await new Promise((resolve) => setTimeout(resolve, delay));
    if (res.destroyed) return;
    const failure = failures.shift();
    if (failure !== undefined) {
      const errorBody = failure.body ?? {
        error: {
          code: failure.status,
          message: `fake failure ${failure.status}`,
          status: STATUS_NAMES[failure.status],
        },
      };
      return send(res, failure.status, errorBody, failure.headers);
    }
    const batchMatch = /^\/v1beta\/batches\/([^/:]+)(:cancel)?$/.exec(path);
    if (batchMatch !== null) {
      const batch = batches.get(batchMatch[1] as string);
      if (batch === undefined) {
        return send(res, 404, { error: { code: 404, message: `no batch ${path}`, status: "NOT_FOUND" } });
      }
      if (req.method === "POST" && batchMatch[2] !== undefined) {
        if (!batch.state.endsWith("SUCCEEDED")) batch.state = "BATCH_STATE_CANCELLED";
        return send(res, 200, {});
      }
      if (req.method === "GET" && batchMatch[2] === undefined) return send(res, 200, await poll(batch));
    }
    if (req.method !== "POST" || match === null) {
      return send(res, 404, { error: { code: 404, message: `no route ${path}`, status: "NOT_FOUND" } });
    }
    switch (match[2]) {
      case "batchEmbedContents": {
        const items = (body.requests ?? []) as Array<Record<string, unknown>>;
        const embeddings = [];
        for (const item of items) embeddings.push({ values: await embed(toEmbedRequest(item)) });
        return send(res, 200, { embeddings });
      }
      case "asyncBatchEmbedContent": {
        // The wire format @google/genai 2.x sends: { batch: { displayName?, inputConfig: { requests:
        // { requests: [{ request: { content, taskType?, outputDimensionality? } }] } } } }.
        const batchBody = body.batch as Record<string, unknown> | undefined;
        const inputConfig = batchBody?.inputConfig as { requests?: { requests?: unknown[] } } | undefined;
        const inlined = (inputConfig?.requests?.requests ?? []) as Array<{
          request?: Record<string, unknown>;
        }>;
        const batch: FakeBatch = {
          name: `batches/fake${nextBatch++}`,
          model: `models/${match[1]}`,
          displayName: typeof batchBody?.displayName === "string" ? batchBody.displayName : undefined,
          requests: inlined.map((item) => toEmbedRequest(item.request ?? {})),
          state: "BATCH_STATE_PENDING",
          polls: 0,
          released: false,
          script: scripts.shift() ?? {},
        };
        batches.set(batch.name.slice("batches/".length), batch);
        return send(res, 200, operation(batch));
      }
      case "embedContent":
        return send(res, 200, { embedding: { values: await embed(toEmbedRequest(body)) } });
      case "generateContent": {
        const text = (options.generate ?? echoPrompt)(body);
        return send(res, 200, {
          candidates: [{ content: { role: "model", parts: [{ text }] }, finishReason: "STOP", index: 0 }],
          usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 1, totalTokenCount: 2 },
          modelVersion: match[1],
        });
      }
      default:
        return send(res, 404, {
          error: { code: 404, message: `no method ${match[2]}`, status: "NOT_FOUND" },
        });
    }
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent)
        send(res, 500, { error: { code: 500, message: String(error), status: "INTERNAL" } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  async function poll(batch: FakeBatch): Promise<Record<string, unknown>> {
    batch.polls++;
    await batch.script.onPoll?.(batch.polls);
    if (isTerminalState(batch.state)) return operation(batch);
    const held = batch.script.holdUntilReleased === true && !batch.released;
    if (held || batch.polls < (batch.script.completeAfterPolls ?? 1)) {
      batch.state = "BATCH_STATE_RUNNING";
      return operation(batch);
    }
    const outcome = batch.script.outcome ?? "succeeded";
    batch.state = `BATCH_STATE_${outcome.toUpperCase()}`;
    if (outcome === "succeeded") {
      batch.answers = [];
      for (const [index, request] of batch.requests.entries()) {
        const error = batch.script.itemError?.(request, index);
        batch.answers.push(error ? { error } : { response: { embedding: { values: await embed(request) } } });
      }
    }
    return operation(batch);
  }

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    failNext(count, failure) {
      for (let i = 0; i < count; i++) failures.push(failure);
    },
    scriptNextBatch(script, times = 1) {
      for (let i = 0; i < times; i++) scripts.push(script);
    },
    delayNext(count, ms) {
      for (let i = 0; i < count; i++) delays.push(ms);
    },
    batches() {
      return [...batches.values()].map(({ name, state, polls }) => ({ name, state, polls }));
    },
    releaseBatch(name) {
      const batch = batches.get(name.slice("batches/".length));
      if (batch === undefined || !name.startsWith("batches/")) throw new Error(`no batch ${name}`);
      batch.released = true;
    },
    close() {
      server.closeAllConnections();
      return new Promise<void>((resolve, reject) =>
        server.close((error) => (error ? reject(error) : resolve())),
      );
    },
  };
}

interface FakeBatch {
  name: string;
  model: string;
  displayName: string | undefined;
  requests: EmbedRequest[];
  state: string;
  polls: number;
  released: boolean;
  script: FakeGeminiBatchScript;
  answers?: Array<Record<string, unknown>>;
}

function isTerminalState(state: string): boolean {
  return ["SUCCEEDED", "FAILED", "CANCELLED", "EXPIRED"].some((end) => state === `BATCH_STATE_${end}`);
}

/** A batch as the API answers it: a long-running Operation whose metadata is the EmbedContentBatch. */
function operation(batch: FakeBatch): Record<string, unknown> {
  const done = isTerminalState(batch.state);
  return {
    name: batch.name,
    metadata: {
      "@type": "type.googleapis.com/google.ai.generativelanguage.v1main.EmbedContentBatch",
      name: batch.name,
      model: batch.model,
      ...(batch.displayName === undefined ? {} : { displayName: batch.displayName }),
      state: batch.state,
      createTime: "2026-01-01T00:00:00Z",
      updateTime: "2026-01-01T00:00:01Z",
      ...(batch.answers === undefined
        ? {}
        : { output: { inlinedResponses: { inlinedResponses: batch.answers } } }),
    },
    ...(done ? { done: true } : {}),
  };
}

function toEmbedRequest(item: Record<string, unknown>): EmbedRequest {
  const content = item.content as { parts?: Array<{ text?: string }> } | undefined;
  const text = (content?.parts ?? []).map((part) => part.text ?? "").join("");
  const request: EmbedRequest = { text };
  if (typeof item.taskType === "string") request.taskType = item.taskType;
  if (typeof item.outputDimensionality === "number") request.outputDimensionality = item.outputDimensionality;
  return request;
}

function echoPrompt(body: Record<string, unknown>): string {
  const contents = body.contents as Array<{ parts?: Array<{ text?: string }> }> | undefined;
  return `echo: ${contents?.[0]?.parts?.[0]?.text ?? ""}`;
}

function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}
