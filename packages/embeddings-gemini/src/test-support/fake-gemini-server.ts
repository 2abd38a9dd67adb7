// A loopback Gemini API (`/v1beta/models/{model}:batchEmbedContents|embedContent|generateContent`,
// and batch mode: `:asyncBatchEmbedContent`, `batches/{id}`, `batches/{id}:cancel`) for driving the
// real @google/genai SDK in tests: records requests, fails or delays on demand, holds batches running
// until released.
import { type LoopbackReply, readJsonBody, startLoopbackServer } from "@claw/provider-utils/test-server";

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

/** An `embed` for tests: the text's first character code marks each vector, so order is visible. */
export function firstCharVector({ text, outputDimensionality }: EmbedRequest): number[] {
  return Array.from({ length: outputDimensionality ?? 3072 }, (_, i) => (i === 0 ? text.charCodeAt(0) : 1));
}

export async function startFakeGeminiServer(options: FakeGeminiOptions = {}): Promise<FakeGeminiServer> {
  const embed = options.embed ?? defaultFakeVector;
  const batches = new Map<string, FakeBatch>();
  const scripts: FakeGeminiBatchScript[] = [];
  let nextBatch = 1;

  const handle = async ({ method, path, model, action, body }: RecordedRequest): Promise<LoopbackReply> => {
    const batchMatch = /^\/v1beta\/batches\/([^/:]+)(:cancel)?$/.exec(path);
    if (batchMatch !== null) {
      const batch = batches.get(batchMatch[1] as string);
      if (batch === undefined) return notFound(`no batch ${path}`);
      if (method === "POST" && batchMatch[2] !== undefined) {
        if (!batch.state.endsWith("SUCCEEDED")) batch.state = "BATCH_STATE_CANCELLED";
        return { body: {} };
      }
      if (method === "GET" && batchMatch[2] === undefined) return { body: await poll(batch) };
    }
    if (method !== "POST" || model === "") return notFound(`no route ${path}`);
    switch (action) {
      case "batchEmbedContents": {
        const items = (body.requests ?? []) as Array<Record<string, unknown>>;
        const embeddings = [];
        for (const item of items) embeddings.push({ values: await embed(toEmbedRequest(item)) });
        return { body: { embeddings } };
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
          model: `models/${model}`,
          displayName: typeof batchBody?.displayName === "string" ? batchBody.displayName : undefined,
          requests: inlined.map((item) => toEmbedRequest(item.request ?? {})),
          state: "BATCH_STATE_PENDING",
          polls: 0,
          released: false,
          script: scripts.shift() ?? {},
        };
        batches.set(batch.name.slice("batches/".length), batch);
        return { body: operation(batch) };
      }
      case "embedContent":
        return { body: { embedding: { values: await embed(toEmbedRequest(body)) } } };
      case "generateContent": {
        const text = (options.generate ?? echoPrompt)(body);
        return {
          body: {
            candidates: [{ content: { role: "model", parts: [{ text }] }, finishReason: "STOP", index: 0 }],
            usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 1, totalTokenCount: 2 },
            modelVersion: model,
          },
        };
      }
      default:
        return notFound(`no method ${action}`);
    }
  };

  const server = await startLoopbackServer<RecordedRequest>({
    record: ({ method, pathname, headers, raw }) => {
      const match = /^\/v1beta\/models\/([^/:]+):(\w+)$/.exec(pathname);
      const body = readJsonBody(raw);
      return { method, path: pathname, model: match?.[1] ?? "", action: match?.[2] ?? "", headers, body };
    },
    handle,
    onError: (error) => ({ status: 500, body: rpcStatus(500, String(error)) }),
  });

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
    url: server.origin,
    requests: server.requests,
    failNext(count, failure) {
      const body = failure.body ?? rpcStatus(failure.status, `fake failure ${failure.status}`);
      server.failNext(
        { status: failure.status, body, ...(failure.headers ? { headers: failure.headers } : {}) },
        count,
      );
    },
    scriptNextBatch(script, times = 1) {
      for (let i = 0; i < times; i++) scripts.push(script);
    },
    delayNext: (count, ms) => server.delayNext(ms, count),
    batches() {
      return [...batches.values()].map(({ name, state, polls }) => ({ name, state, polls }));
    },
    releaseBatch(name) {
      const batch = batches.get(name.slice("batches/".length));
      if (batch === undefined || !name.startsWith("batches/")) throw new Error(`no batch ${name}`);
      batch.released = true;
    },
    close: () => server.close(),
  };
}

/** A google.rpc.Status error body. */
function rpcStatus(code: number, message: string): Record<string, unknown> {
  return { error: { code, message, status: STATUS_NAMES[code] } };
}

function notFound(message: string): LoopbackReply {
  return { status: 404, body: rpcStatus(404, message) };
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
