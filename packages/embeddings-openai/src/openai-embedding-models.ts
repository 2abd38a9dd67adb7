// Known OpenAI embedding models: native sizes, and which of them accept a `dimensions` parameter.
import { MemoryError } from "@claw/memory-api";
import type { OpenAIProviderKind } from "./openai-connection.js";

/** Embedding models whose dimensions this package knows; any other id needs `dimensions`. */
export type OpenAIEmbeddingModelId =
  | "text-embedding-3-small"
  | "text-embedding-3-large"
  | "text-embedding-ada-002"
  | (string & {});

export const DEFAULT_EMBEDDING_MODEL = "text-embedding-3-small";

const NATIVE_DIMENSIONS: Record<string, number> = {
  "text-embedding-3-small": 1536,
  "text-embedding-3-large": 3072,
  "text-embedding-ada-002": 1536,
};

export interface EmbeddingShape {
  dimensions: number;
  /** Whether the request carries `dimensions` (only models and endpoints that understand it). */
  sendDimensions: boolean;
}

export function resolveEmbeddingShape(
  model: string,
  configured: number | undefined,
  provider: OpenAIProviderKind,
): EmbeddingShape {
  if (configured !== undefined && (!Number.isInteger(configured) || configured < 1)) {
    throw MemoryError.invalidInput("dimensions", `must be a positive integer, got ${configured}`);
  }
  // OpenRouter names models "openai/text-embedding-3-small"; the size is the same model's.
  const base = model.slice(model.lastIndexOf("/") + 1);
  const native = NATIVE_DIMENSIONS[base];
  const shortenable = base.startsWith("text-embedding-3-");
  if (native === undefined) {
    if (configured === undefined) {
      throw MemoryError.invalidInput("dimensions", `is required for the unknown embedding model "${model}"`);
    }
    return { dimensions: configured, sendDimensions: shortenable || provider === "custom" };
  }
  const dimensions = configured ?? native;
  if (dimensions > native || (!shortenable && dimensions !== native)) {
    const allowed = shortenable ? `at most ${native}` : `exactly ${native}`;
    throw MemoryError.invalidInput("dimensions", `${model} gives ${allowed} dimensions, got ${dimensions}`);
  }
  return { dimensions, sendDimensions: shortenable };
}
