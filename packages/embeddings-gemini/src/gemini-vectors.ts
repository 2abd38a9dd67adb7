// One Gemini embedding's values → a checked Float32Array (batchEmbedContents and batch jobs alike).
import { MemoryError } from "@claw/memory-api";

/** Checks size and finiteness; truncated (or unknown-size) vectors are L2-normalised. */
export function toVector(
  values: readonly number[] | undefined,
  index: number,
  dimensions: number,
  normalise: boolean,
): Float32Array {
  const list = values ?? [];
  if (list.length !== dimensions) {
    throw new MemoryError(
      "PROVIDER",
      `gemini: embedding ${index} has ${list.length} dimensions, expected ${dimensions}`,
      { retryable: false },
    );
  }
  const vector = Float32Array.from(list);
  if (!vector.every(Number.isFinite)) {
    throw new MemoryError("PROVIDER", `gemini: embedding ${index} has non-finite values`, {
      retryable: false,
    });
  }
  return normalise ? l2Normalise(vector) : vector;
}

function l2Normalise(vector: Float32Array): Float32Array {
  let sum = 0;
  for (const value of vector) sum += value * value;
  const norm = Math.sqrt(sum);
  if (norm === 0) return vector;
  for (let i = 0; i < vector.length; i++) vector[i] = (vector[i] ?? 0) / norm;
  return vector;
}
