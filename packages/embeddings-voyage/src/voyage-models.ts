// Voyage model ids this package knows, with their native and selectable output sizes.
import { MemoryError } from "@claw/memory-api";

/** The embedding model used when `model` is not given. */
export const DEFAULT_VOYAGE_MODEL = "voyage-3.5";

/** Model ids with known dimensions; any other string is accepted when `dimensions` is given. */
export type VoyageEmbeddingModelId =
  | "voyage-3.5"
  | "voyage-3.5-lite"
  | "voyage-3-large"
  | "voyage-code-3"
  | "voyage-multilingual-2"
  | (string & {});

interface ModelInfo {
  /** What the model returns when no output_dimension is sent. */
  defaultDimensions: number;
  /** Sizes accepted as output_dimension; empty = the model has one fixed size. */
  outputDimensions: readonly number[];
}

const MATRYOSHKA = [256, 512, 1024, 2048] as const;

const KNOWN_MODELS: Readonly<Record<string, ModelInfo>> = {
  "voyage-3.5": { defaultDimensions: 1024, outputDimensions: MATRYOSHKA },
  "voyage-3.5-lite": { defaultDimensions: 1024, outputDimensions: MATRYOSHKA },
  "voyage-3-large": { defaultDimensions: 1024, outputDimensions: MATRYOSHKA },
  "voyage-code-3": { defaultDimensions: 1024, outputDimensions: MATRYOSHKA },
  "voyage-multilingual-2": { defaultDimensions: 1024, outputDimensions: [] },
};

export interface ResolvedModel {
  dimensions: number;
  /** Sent as output_dimension; undefined = let the model use its native size. */
  outputDimension: number | undefined;
}

/**
 * Settles the vector size before any request, so a wrong `dimensions` fails at start-up with
 * INVALID_INPUT instead of on the first write. Unknown models get no output_dimension: older
 * Voyage models reject the parameter, and the size check on each response still catches a
 * `dimensions` that does not match what the model returns.
 */
export function resolveModel(model: string, dimensions: number | undefined): ResolvedModel {
  if (dimensions !== undefined && (!Number.isInteger(dimensions) || dimensions < 1)) {
    throw MemoryError.invalidInput("dimensions", `must be an integer >= 1, got ${String(dimensions)}`);
  }
  const info = Object.hasOwn(KNOWN_MODELS, model) ? KNOWN_MODELS[model] : undefined;
  if (info === undefined) {
    if (dimensions === undefined) {
      throw MemoryError.invalidInput(
        "dimensions",
        `unknown Voyage model "${model}": set dimensions to the size of its vectors`,
      );
    }
    return { dimensions, outputDimension: undefined };
  }
  if (dimensions === undefined || dimensions === info.defaultDimensions) {
    return { dimensions: info.defaultDimensions, outputDimension: undefined };
  }
  if (!info.outputDimensions.includes(dimensions)) {
    const allowed =
      info.outputDimensions.length > 0 ? info.outputDimensions.join(", ") : String(info.defaultDimensions);
    throw MemoryError.invalidInput(
      "dimensions",
      `${model} produces ${allowed} dimensions, got ${dimensions}`,
    );
  }
  return { dimensions, outputDimension: dimensions };
}
