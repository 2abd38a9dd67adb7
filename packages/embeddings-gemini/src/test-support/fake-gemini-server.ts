// A loopback Gemini API (`/v1beta/models/{model}:batchEmbedContents|embedContent|generateContent`)
// for driving the real @google/genai SDK in tests: records requests, fails or delays on demand.
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

export interface FakeGeminiServer {
  /** Root URL (no API version), for `baseURL`. */
  readonly url: string;
  readonly requests: RecordedRequest[];
  failNext(count: number, failure: FakeFailure): void;
  /** Delay the next `count` responses by `ms`. */
  delayNext(count: number, ms: number): void;
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

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    failNext(count, failure) {
      for (let i = 0; i < count; i++) failures.push(failure);
    },
    delayNext(count, ms) {
      for (let i = 0; i < count; i++) delays.push(ms);
    },
    close() {
      server.closeAllConnections();
      return new Promise<void>((resolve, reject) =>
        server.close((error) => (error ? reject(error) : resolve())),
      );
    },
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
