// Which files make up a local model, where each one comes from, and how to pool its output.
import { MemoryError } from "@claw/memory-api";

/** How token vectors become one text vector: the first (CLS) token's, or the mean of all. */
export type Pooling = "cls" | "mean";

/** One file of a model: its local name and where it is in the model's repository. */
export interface ModelFileSpec {
  /** The name under `{workspace}/models/{model}/`. */
  name: string;
  /** The path inside the repository (`${baseUrl}/${repo}/resolve/main/${remotePath}`). */
  remotePath: string;
  /** Hex SHA-256 of the file, checked after download when known. */
  sha256?: string;
  /** Byte size, checked after download when known (besides Content-Length). */
  size?: number;
}

/** The files a model needs and how its output is pooled into one vector. */
export interface ModelManifest {
  /** "owner/name" on the model hub. */
  repo: string;
  files: readonly ModelFileSpec[];
  /** The pooling the model was trained with, when its config.json does not say (it rarely does). */
  pooling?: Pooling;
  /** The hidden size, for documentation; the real value is read from the model itself. */
  dimensions?: number;
}

/** The local model used when `model` is not given (INT8 gte-multilingual-base). */
export const DEFAULT_MODEL = "gte-multilingual-base";

const GTE_REPO = "Alibaba-NLP/gte-multilingual-base";

function gteFiles(onnxPath: string): ModelFileSpec[] {
  return [
    { name: "model.onnx", remotePath: onnxPath },
    { name: "tokenizer.json", remotePath: "tokenizer.json" },
    { name: "config.json", remotePath: "config.json" },
  ];
}

/**
 * Models this package can download by name. gte-multilingual-base is trained with CLS pooling
 * (its model card), which its config.json does not record, so the manifest carries it.
 */
export const KNOWN_MODELS: Readonly<Record<string, ModelManifest>> = {
  [DEFAULT_MODEL]: {
    repo: GTE_REPO,
    files: gteFiles("onnx/model_int8.onnx"),
    pooling: "cls",
    dimensions: 768,
  },
  "gte-multilingual-base-full": {
    repo: GTE_REPO,
    files: gteFiles("onnx/model.onnx"),
    pooling: "cls",
    dimensions: 768,
  },
};

/** The files a custom model (no manifest) must already have; config.json is optional there. */
export const REQUIRED_LOCAL_FILES = ["model.onnx", "tokenizer.json"] as const;

/** Written last, after every file has been renamed into place. */
export const COMPLETE_MARKER = ".complete";

/** The manifest given in settings wins; otherwise the known model of that name, if any. */
export function manifestFor(model: string, override?: ModelManifest): ModelManifest | undefined {
  if (override !== undefined) return validateManifest(override);
  return Object.hasOwn(KNOWN_MODELS, model) ? KNOWN_MODELS[model] : undefined;
}

/** Model names become folder names: keep them to one safe path segment. */
export function validateModelName(model: string): string {
  if (
    typeof model !== "string" ||
    model.length === 0 ||
    model.length > 200 ||
    model === "." ||
    model === ".." ||
    !/^[A-Za-z0-9._-]+$/.test(model)
  ) {
    throw MemoryError.invalidInput(
      "model",
      `"${String(model)}" is not a usable model name (letters, digits, ".", "_", "-")`,
    );
  }
  return model;
}

function validateManifest(manifest: ModelManifest): ModelManifest {
  if (typeof manifest.repo !== "string" || !/^[\w.-]+(\/[\w.-]+)?$/.test(manifest.repo)) {
    throw MemoryError.invalidInput("manifest.repo", `"${String(manifest.repo)}" is not "owner/name"`);
  }
  const names = new Set<string>();
  for (const file of manifest.files) {
    if (!/^[\w.-]+$/.test(file.name) || file.name.startsWith(".") || names.has(file.name)) {
      throw MemoryError.invalidInput("manifest.files", `bad or repeated file name "${file.name}"`);
    }
    if (file.remotePath.split("/").some((part) => part === "" || part === "." || part === "..")) {
      throw MemoryError.invalidInput("manifest.files", `bad remote path "${file.remotePath}"`);
    }
    if (file.sha256 !== undefined && !/^[0-9a-f]{64}$/i.test(file.sha256)) {
      throw MemoryError.invalidInput("manifest.files", `sha256 of ${file.name} is not 64 hex digits`);
    }
    names.add(file.name);
  }
  for (const required of REQUIRED_LOCAL_FILES) {
    if (!names.has(required)) {
      throw MemoryError.invalidInput("manifest.files", `the manifest must include ${required}`);
    }
  }
  return manifest;
}
