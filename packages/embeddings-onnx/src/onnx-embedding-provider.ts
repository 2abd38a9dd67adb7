// The local provider: a model folder → an onnxruntime-node session behind the EmbeddingProvider interface.
import { access, readFile } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import type { EmbeddingProvider } from "@claw/memory-api";
import { MemoryError } from "@claw/memory-api";
import { InferenceSession } from "onnxruntime-node";
import type { FetchLike } from "./file-download.js";
import { ensureModelFiles } from "./model-download.js";
import { DEFAULT_MODEL, type ModelManifest, manifestFor, type Pooling } from "./model-files.js";
import { createRunner, OnnxEmbeddingProvider } from "./onnx-runner.js";
import { loadTextEncoder } from "./text-encoder.js";

/** Settings of the local ONNX embedding provider (`[embedding]` with `provider = "local"`). */
export interface OnnxEmbeddingSettings {
  /** Always "local" when core resolves it; accepted and ignored. */
  provider?: string;
  /** Default "gte-multilingual-base" (INT8). Any other name works when its files are in place. */
  model?: string;
  /** The workspace whose `models/{model}/` holds the files. Default CLAW_MEMORY_WORKSPACE, else ~/.claw-memory. */
  workspaceDir?: string;
  /** Download base URL (default https://huggingface.co). `baseURL` is accepted as an alias. */
  modelBaseUrl?: string;
  baseURL?: string;
  /** Sent as a bearer token on downloads (gated repositories). */
  apiKey?: string;
  /** When given, must equal the model's hidden size; otherwise INVALID_INPUT. */
  dimensions?: number;
  /** For downloads: abort when no bytes arrive for this long. */
  timeoutMs?: number;
  /** Accepted for the common provider options; local inference is not retried. */
  maxRetries?: number;
  fetch?: FetchLike;
  /** Remote files for a model this package does not know (or to pin sha256s). */
  manifest?: ModelManifest;
  /** Beats config.json's `pooling` key, which beats the manifest; default "mean". */
  pooling?: Pooling;
  /** Longer inputs are truncated. Default 512. */
  maxInputTokens?: number;
  /** Texts per inference run. Default 32. */
  maxBatchSize?: number;
  /** false = never download; missing files are UNAVAILABLE. Default true. */
  download?: boolean;
  /** Told as each model file downloads: the bytes received so far and, when known, the total. */
  onDownloadProgress?: (file: string, receivedBytes: number, totalBytes?: number) => void;
  /** onnxruntime threads per run; default onnxruntime's own choice. */
  intraOpNumThreads?: number;
}

function positiveInteger(value: number | undefined, field: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value <= 0)
    throw MemoryError.invalidInput(field, "must be a positive integer");
  return value;
}

async function readPooling(configPath: string | undefined): Promise<Pooling | undefined> {
  if (configPath === undefined) return undefined;
  let config: { pooling?: unknown };
  try {
    config = JSON.parse(await readFile(configPath, "utf8")) as { pooling?: unknown };
  } catch (error) {
    throw new MemoryError("UNAVAILABLE", `cannot read ${configPath}: ${(error as Error).message}`, {
      cause: error,
    });
  }
  if (config.pooling === undefined) return undefined;
  if (config.pooling === "cls" || config.pooling === "mean") return config.pooling;
  throw MemoryError.invalidInput(
    "pooling",
    `${configPath} says "${String(config.pooling)}"; use "cls" or "mean"`,
  );
}

/** The hidden size from the output's declared shape, when it is a number. */
function declaredDimensions(session: InferenceSession, output: string): number | undefined {
  const meta = session.outputMetadata.find((value) => value.name === output);
  if (meta === undefined || !meta.isTensor) return undefined;
  const last = meta.shape[meta.shape.length - 1];
  return typeof last === "number" && last > 0 ? last : undefined;
}

/**
 * Ensures the model files (downloading when missing), loads the tokenizer and an onnxruntime
 * session, and answers `embed()` with L2-normalised vectors of the model's hidden size.
 *
 * @example
 * ```ts
 * import { createEmbeddingProvider } from "@claw/embeddings-onnx";
 * import { createMemory } from "@claw/memory-core";
 *
 * // Files go to ./my-agent/models/gte-multilingual-base/ on first use.
 * const embeddings = await createEmbeddingProvider({ workspaceDir: "./my-agent" });
 * const memory = await createMemory({ workspaceDir: "./my-agent", embeddings });
 * ```
 */
export async function createEmbeddingProvider(
  settings: OnnxEmbeddingSettings = {},
): Promise<EmbeddingProvider> {
  const model = settings.model ?? DEFAULT_MODEL;
  const maxInputTokens = positiveInteger(settings.maxInputTokens, "maxInputTokens", 512);
  const maxBatchSize = positiveInteger(settings.maxBatchSize, "maxBatchSize", 32);
  if (settings.dimensions !== undefined) positiveInteger(settings.dimensions, "dimensions", 0);
  if (settings.pooling !== undefined && settings.pooling !== "cls" && settings.pooling !== "mean") {
    throw MemoryError.invalidInput("pooling", 'use "cls" or "mean"');
  }
  const workspaceDir = settings.workspaceDir ?? join(homedir(), ".claw-memory"); // apps pass CLAW_MEMORY_WORKSPACE in
  const baseUrl = settings.modelBaseUrl ?? settings.baseURL;
  const files = await ensureModelFiles({
    workspaceDir,
    model,
    ...(settings.manifest !== undefined && { manifest: settings.manifest }),
    ...(baseUrl !== undefined && { baseUrl }),
    ...(settings.fetch !== undefined && { fetch: settings.fetch }),
    ...(settings.apiKey !== undefined && { headers: { Authorization: `Bearer ${settings.apiKey}` } }),
    ...(settings.timeoutMs !== undefined && { stallTimeoutMs: settings.timeoutMs }),
    ...(settings.download !== undefined && { download: settings.download }),
    ...(settings.onDownloadProgress !== undefined && { onProgress: settings.onDownloadProgress }),
  });
  const modelPath = files.files["model.onnx"];
  const tokenizerPath = files.files["tokenizer.json"];
  if (modelPath === undefined || tokenizerPath === undefined) {
    throw new MemoryError(
      "UNAVAILABLE",
      `model "${model}" lacks model.onnx or tokenizer.json in ${files.dir}`,
    );
  }
  const tokenizerConfigPath = join(files.dir, "tokenizer_config.json");
  const encoder = await loadTextEncoder({
    tokenizerPath,
    ...((await fileExists(tokenizerConfigPath)) && { tokenizerConfigPath }),
    maxTokens: maxInputTokens,
  });
  const configPath = join(files.dir, "config.json");
  const pooling =
    settings.pooling ??
    (await readPooling((await fileExists(configPath)) ? configPath : undefined)) ??
    manifestFor(model, settings.manifest)?.pooling ??
    "mean";

  let session: InferenceSession;
  try {
    session = await InferenceSession.create(modelPath, {
      // Errors only: onnxruntime's warnings go straight to stderr, which a library must not do.
      logSeverityLevel: 3,
      ...(settings.intraOpNumThreads !== undefined && { intraOpNumThreads: settings.intraOpNumThreads }),
    });
  } catch (error) {
    throw new MemoryError("UNAVAILABLE", `cannot load ${modelPath}: ${(error as Error).message}`, {
      cause: error,
    });
  }
  try {
    const runner = createRunner(session, encoder, pooling);
    // Without a numeric hidden size in the output's shape, one inference tells.
    const dimensions =
      declaredDimensions(session, runner.output) ?? (await runner.run(["dimensions"]))[0]!.length;
    if (settings.dimensions !== undefined && settings.dimensions !== dimensions) {
      throw MemoryError.invalidInput(
        "dimensions",
        `model "${model}" produces ${dimensions}-dimensional vectors, not ${settings.dimensions}`,
      );
    }
    return new OnnxEmbeddingProvider(model, dimensions, maxBatchSize, maxInputTokens, session, runner);
  } catch (error) {
    await session.release();
    throw error;
  }
}

/** The named alias every provider package exports. */
export const createOnnxEmbeddings = createEmbeddingProvider;

async function fileExists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}
