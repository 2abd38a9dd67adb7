// OpenAI embeddings responses → Float32Arrays in input order (from /v1/embeddings and batch output lines).
import { MemoryError } from "@claw/memory-api";
import type OpenAI from "openai";

/** One vector per input in input order, whatever order and encoding the server chose. */
export function toVectors(
  response: OpenAI.CreateEmbeddingResponse,
  count: number,
  dimensions: number,
  label: string,
): Float32Array[] {
  const data: unknown = response?.data;
  if (!Array.isArray(data) || data.length !== count) {
    const got = Array.isArray(data) ? data.length : "no";
    throw new MemoryError("PROVIDER", `${label}: expected ${count} embeddings, got ${got}`);
  }
  const vectors = new Array<Float32Array | undefined>(count);
  for (const item of data as { index?: unknown; embedding?: unknown }[]) {
    const index = item.index;
    if (typeof index !== "number" || !Number.isInteger(index) || index < 0 || index >= count) {
      throw new MemoryError("PROVIDER", `${label}: embedding index ${String(index)} out of range`);
    }
    if (vectors[index] !== undefined) {
      throw new MemoryError("PROVIDER", `${label}: embedding index ${index} answered twice`);
    }
    const vector = decodeEmbedding(item.embedding, label);
    if (vector.length !== dimensions) {
      throw new MemoryError(
        "PROVIDER",
        `${label}: embedding ${index} has ${vector.length} dimensions, expected ${dimensions}`,
      );
    }
    vectors[index] = vector;
  }
  return vectors as Float32Array[];
}

function decodeEmbedding(value: unknown, label: string): Float32Array {
  if (Array.isArray(value) && value.every((x) => typeof x === "number")) return Float32Array.from(value);
  // Some servers (and proxies) answer base64 whatever was asked: little-endian float32s.
  if (typeof value === "string") {
    const bytes = Buffer.from(value, "base64");
    if (bytes.length % 4 !== 0) {
      throw new MemoryError("PROVIDER", `${label}: base64 embedding of ${bytes.length} bytes is not float32`);
    }
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const vector = new Float32Array(bytes.length / 4);
    for (let i = 0; i < vector.length; i++) vector[i] = view.getFloat32(i * 4, true);
    return vector;
  }
  throw new MemoryError("PROVIDER", `${label}: embedding is neither a number array nor base64`);
}
