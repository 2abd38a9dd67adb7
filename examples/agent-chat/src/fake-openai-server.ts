import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface ChatRequest {
  messages: Array<{ role: string; content: string }>;
}

/**
 * A loopback server speaking OpenAI's wire format for the two calls the agent makes:
 * `POST /v1/embeddings` (bag-of-words vectors, float or base64) and `POST /v1/chat/completions`
 * (a scripted model: it answers from whatever memory the prompt carries).
 */
export async function startFakeOpenAI(reply: (request: ChatRequest) => string) {
  const chats: ChatRequest[] = [];
  let embeddingCalls = 0;
  const server: Server = createServer(async (req, res) => {
    const body = JSON.parse(await readBody(req)) as Record<string, unknown>;
    res.setHeader("content-type", "application/json");
    if (req.url === "/v1/embeddings") {
      embeddingCalls++;
      const inputs = (Array.isArray(body.input) ? body.input : [body.input]) as string[];
      const dims = typeof body.dimensions === "number" ? body.dimensions : 1536;
      const data = inputs.map((text, index) => {
        const vector = embed(text, dims);
        const embedding =
          body.encoding_format === "base64"
            ? Buffer.from(vector.buffer).toString("base64")
            : Array.from(vector);
        return { object: "embedding", index, embedding };
      });
      res.end(
        JSON.stringify({
          object: "list",
          data,
          model: body.model,
          usage: { prompt_tokens: 1, total_tokens: 1 },
        }),
      );
      return;
    }
    if (req.url === "/v1/chat/completions") {
      const request = body as unknown as ChatRequest;
      chats.push(request);
      res.end(
        JSON.stringify({
          id: `chatcmpl-${chats.length}`,
          object: "chat.completion",
          created: 0,
          model: body.model,
          choices: [
            { index: 0, finish_reason: "stop", message: { role: "assistant", content: reply(request) } },
          ],
          usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
        }),
      );
      return;
    }
    res.statusCode = 404;
    res.end(JSON.stringify({ error: { message: `no route ${req.url}` } }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    chats,
    embeddingCalls: () => embeddingCalls,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function embed(text: string, dims: number): Float32Array {
  const vector = new Float32Array(dims);
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    const h = createHash("sha256").update(word).digest();
    vector[h.readUInt32LE(0) % dims] += 1;
  }
  const norm = Math.hypot(...vector) || 1;
  return vector.map((x) => x / norm);
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}
