// A loopback stand-in for the Voyage API (POST /v1/embeddings) that records what the SDK sends.
import type { IncomingHttpHeaders } from "node:http";
import { type LoopbackReply, readJsonBody, startLoopbackServer } from "@claw/provider-utils/test-server";

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: {
    input?: string | string[];
    model?: string;
    input_type?: string | null;
    output_dimension?: number;
    [key: string]: unknown;
  };
}

export interface FakeFailure {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface FakeVoyageOptions {
  /** Computes the vectors; default: a deterministic vector of `output_dimension ?? 1024` numbers. */
  embed?: (texts: string[], request: RecordedRequest) => number[][] | Promise<number[][]>;
  /** Answer data items in reverse, to prove the client orders them by `index`. */
  reverseOrder?: boolean;
}

export interface FakeVoyageServer {
  /** Base URL including /v1, as the provider's baseURL expects. */
  readonly baseURL: string;
  readonly requests: RecordedRequest[];
  /** The next `times` requests get this status, body and headers instead of embeddings. */
  failNext(failure: FakeFailure, times?: number): void;
  /** The next `times` requests wait `ms` before answering. */
  delayNext(ms: number, times?: number): void;
  close(): Promise<void>;
}

export async function startFakeVoyageServer(options: FakeVoyageOptions = {}): Promise<FakeVoyageServer> {
  const server = await startLoopbackServer<RecordedRequest>({
    record: (request) => ({
      method: request.method,
      path: request.url,
      headers: request.headers,
      body: readJsonBody(request.raw) as RecordedRequest["body"],
    }),
    handle: (request) => respond(request, options),
    onError: (error) => ({ status: 500, body: { detail: String(error) } }),
  });
  return {
    baseURL: `${server.origin}/v1`,
    requests: server.requests,
    failNext: ({ status, body, headers }, times) =>
      server.failNext({ status, body: body ?? {}, ...(headers ? { headers } : {}) }, times),
    delayNext: (ms, times) => server.delayNext(ms, times),
    close: () => server.close(),
  };
}

async function respond(request: RecordedRequest, options: FakeVoyageOptions): Promise<LoopbackReply> {
  if (request.method !== "POST" || request.path !== "/v1/embeddings") {
    return { status: 404, body: { detail: "Not Found" } };
  }
  const input = request.body.input;
  const texts = typeof input === "string" ? [input] : Array.isArray(input) ? input : [];
  const dimensions = request.body.output_dimension ?? 1024;
  const vectors = options.embed
    ? await options.embed(texts, request)
    : texts.map((text) => defaultVector(text, dimensions));
  const data = vectors.map((embedding, index) => ({ object: "embedding", embedding, index }));
  if (options.reverseOrder) data.reverse();
  return {
    body: {
      object: "list",
      data,
      model: request.body.model,
      usage: { total_tokens: texts.reduce((sum, text) => sum + text.length, 0) },
    },
  };
}

/** First component = text length, so tests can tell which vector belongs to which input. */
function defaultVector(text: string, dimensions: number): number[] {
  const v = new Array<number>(dimensions).fill(0);
  v[0] = text.length;
  return v;
}
