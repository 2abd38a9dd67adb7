import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { EmbeddingProvider } from "@claw/memory-api";

export interface FakeEmbeddingsServer {
  /** `http://127.0.0.1:<port>/v1` */
  baseURL: string;
  /** Embedding requests answered, and the texts they carried. */
  stats: { requests: number; inputs: number };
  close(): Promise<void>;
}

/**
 * A loopback server speaking OpenAI's `POST /v1/embeddings` wire format (float vectors), whose
 * vectors come from `vectors` (the deterministic hashing embedder): what the benchmark's provider
 * SDK talks to instead of the network. `latencyMs` stands in for the round trip.
 */
export async function startFakeEmbeddingsServer(
  vectors: EmbeddingProvider,
  latencyMs = 0,
): Promise<FakeEmbeddingsServer> {
  const stats = { requests: 0, inputs: 0 };
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      void (async () => {
        if (request.method !== "POST" || !request.url?.endsWith("/embeddings")) {
          response.writeHead(404, { "content-type": "application/json" });
          response.end(JSON.stringify({ error: { message: "not found", type: "invalid_request_error" } }));
          return;
        }
        const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
          input: string | string[];
          model: string;
        };
        const inputs = Array.isArray(body.input) ? body.input : [body.input];
        stats.requests++;
        stats.inputs += inputs.length;
        const embedded = await vectors.embed(inputs);
        if (latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, latencyMs));
        response.writeHead(200, { "content-type": "application/json" });
        response.end(
          JSON.stringify({
            object: "list",
            model: body.model,
            data: embedded.map((v, index) => ({ object: "embedding", index, embedding: Array.from(v) })),
            usage: { prompt_tokens: inputs.length, total_tokens: inputs.length },
          }),
        );
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    stats,
    close: () =>
      new Promise((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}
