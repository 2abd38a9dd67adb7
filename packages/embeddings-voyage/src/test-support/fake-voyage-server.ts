// A loopback stand-in for the Voyage API (POST /v1/embeddings) that records what the SDK sends.
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

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
  const requests: RecordedRequest[] = [];
  const failures: FakeFailure[] = [];
  const delays: number[] = [];
  const timers = new Set<NodeJS.Timeout>();

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      let body: RecordedRequest["body"] = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}") as RecordedRequest["body"];
      } catch {
        // Recorded as an empty body; the assertions on it will say what went wrong.
      }
      const recorded: RecordedRequest = {
        method: req.method ?? "",
        path: req.url ?? "",
        headers: req.headers,
        body,
      };
      requests.push(recorded);
      const failure = failures.shift();
      const delay = delays.shift() ?? 0;
      const answer = () => {
        respond(res, recorded, failure, options).catch((error: unknown) => {
          send(res, 500, { detail: String(error) });
        });
      };
      if (delay <= 0) return answer();
      const timer = setTimeout(() => {
        timers.delete(timer);
        answer();
      }, delay);
      timers.add(timer);
    });
  });

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    failNext(failure, times = 1) {
      for (let i = 0; i < times; i++) failures.push(failure);
    },
    delayNext(ms, times = 1) {
      for (let i = 0; i < times; i++) delays.push(ms);
    },
    async close() {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) =>
        server.close((error) => (error ? reject(error) : resolve())),
      );
    },
  };
}

async function respond(
  res: ServerResponse,
  request: RecordedRequest,
  failure: FakeFailure | undefined,
  options: FakeVoyageOptions,
): Promise<void> {
  if (res.destroyed) return;
  if (failure !== undefined) return send(res, failure.status, failure.body ?? {}, failure.headers);
  if (request.method !== "POST" || request.path !== "/v1/embeddings") {
    return send(res, 404, { detail: "Not Found" });
  }
  const input = request.body.input;
  const texts = typeof input === "string" ? [input] : Array.isArray(input) ? input : [];
  const dimensions = request.body.output_dimension ?? 1024;
  const vectors = options.embed
    ? await options.embed(texts, request)
    : texts.map((text) => defaultVector(text, dimensions));
  const data = vectors.map((embedding, index) => ({ object: "embedding", embedding, index }));
  if (options.reverseOrder) data.reverse();
  send(res, 200, {
    object: "list",
    data,
    model: request.body.model,
    usage: { total_tokens: texts.reduce((sum, text) => sum + text.length, 0) },
  });
}

/** First component = text length, so tests can tell which vector belongs to which input. */
function defaultVector(text: string, dimensions: number): number[] {
  const v = new Array<number>(dimensions).fill(0);
  v[0] = text.length;
  return v;
}

function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (res.destroyed) return;
  const text = typeof body === "string" ? body : JSON.stringify(body);
  res.writeHead(status, {
    "content-type": typeof body === "string" ? "text/plain" : "application/json",
    ...headers,
  });
  res.end(text);
}
