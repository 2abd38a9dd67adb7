// A node:http server on 127.0.0.1 for driving a vendor's real SDK in tests: it listens on an
// ephemeral port, reads each body, keeps a request log, answers scripted failures and delays, and
// sends JSON (or raw) replies. The vendor's fake supplies what to record and how to answer.
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface LoopbackRequest {
  method: string;
  /** Path and query as sent, e.g. "/v1beta/batches/fake1?alt=json". */
  url: string;
  /** The path without the query. */
  pathname: string;
  headers: IncomingHttpHeaders;
  /** The body as sent. */
  raw: Buffer;
}

export interface LoopbackReply {
  /** Default 200. */
  status?: number;
  /** A string or bytes go out as they are (text/plain unless `headers` says otherwise); anything else as JSON. */
  body?: unknown;
  headers?: Record<string, string>;
}

export interface LoopbackServerOptions<Recorded> {
  /** What the request log keeps of a request. */
  record(request: LoopbackRequest): Recorded | Promise<Recorded>;
  /** The answer to a request no scripted failure took. */
  handle(recorded: Recorded, request: LoopbackRequest): LoopbackReply | Promise<LoopbackReply>;
  /** The answer when `handle` throws; default 500 with `{ error: { message } }`. */
  onError?(error: unknown): LoopbackReply;
}

export interface LoopbackServer<Recorded> {
  /** e.g. http://127.0.0.1:43121 */
  readonly origin: string;
  /** Every request, in arrival order (recorded before it is answered). */
  readonly requests: Recorded[];
  /** The next `times` requests get `reply` instead of `handle`'s answer. */
  failNext(reply: LoopbackReply, times?: number): void;
  /** The next `times` requests are answered `ms` later (or never, if the client gave up by then). */
  delayNext(ms: number, times?: number): void;
  /** Forgets the log and every scripted failure and delay; answers still waiting are dropped. */
  reset(): void;
  close(): Promise<void>;
}

export async function startLoopbackServer<Recorded>(
  options: LoopbackServerOptions<Recorded>,
): Promise<LoopbackServer<Recorded>> {
  const requests: Recorded[] = [];
  const failures: LoopbackReply[] = [];
  const delays: number[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const onError = options.onError ?? defaultErrorReply;

  const wait = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve();
      }, ms);
      timers.add(timer);
    });

  const answer = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const request = await readRequest(req);
    const recorded = await options.record(request);
    requests.push(recorded);
    // Taken on arrival: a scripted failure or delay belongs to the request that was next when it was set.
    const failure = failures.shift();
    const delay = delays.shift() ?? 0;
    if (delay > 0) await wait(delay);
    if (res.destroyed) return;
    let reply: LoopbackReply;
    try {
      reply = failure ?? (await options.handle(recorded, request));
    } catch (error) {
      reply = onError(error);
    }
    send(res, reply);
  };

  const server = createServer((req, res) => {
    answer(req, res).catch((error: unknown) => send(res, onError(error)));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  const clearTimers = () => {
    for (const timer of timers) clearTimeout(timer);
    timers.clear();
  };

  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    failNext(reply, times = 1) {
      for (let i = 0; i < times; i++) failures.push(reply);
    },
    delayNext(ms, times = 1) {
      for (let i = 0; i < times; i++) delays.push(ms);
    },
    reset() {
      clearTimers();
      requests.length = 0;
      failures.length = 0;
      delays.length = 0;
    },
    async close() {
      clearTimers();
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) =>
        server.close((error) => (error ? reject(error) : resolve())),
      );
    },
  };
}

/** A JSON object body; `{}` for an empty, non-JSON or non-object body (assertions on it say what went wrong). */
export function readJsonBody(raw: Buffer): Record<string, unknown> {
  const text = raw.toString("utf8");
  if (text.trim() === "") return {};
  try {
    const value: unknown = JSON.parse(text);
    const isObject = typeof value === "object" && value !== null && !Array.isArray(value);
    return isObject ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

async function readRequest(req: IncomingMessage): Promise<LoopbackRequest> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const url = req.url ?? "/";
  return {
    method: req.method ?? "GET",
    url,
    pathname: new URL(url, "http://127.0.0.1").pathname,
    headers: req.headers,
    raw: Buffer.concat(chunks),
  };
}

function send(res: ServerResponse, reply: LoopbackReply): void {
  if (res.destroyed || res.headersSent) return;
  const { body } = reply;
  const asIs = typeof body === "string" || body instanceof Uint8Array;
  const headers: Record<string, string> = { "content-type": asIs ? "text/plain" : "application/json" };
  for (const [name, value] of Object.entries(reply.headers ?? {})) headers[name.toLowerCase()] = value;
  res.writeHead(reply.status ?? 200, headers);
  res.end(asIs ? body : JSON.stringify(body ?? {}));
}

function defaultErrorReply(error: unknown): LoopbackReply {
  return {
    status: 500,
    body: { error: { message: error instanceof Error ? error.message : String(error) } },
  };
}
