// Makes sure `{workspace}/models/{model}/` holds a complete model, downloading what is missing.
import { access, mkdir, open, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { MemoryError } from "@claw/memory-api";
import { withDownloadLock } from "./download-lock.js";
import { downloadFile, type FetchLike } from "./file-download.js";
import {
  COMPLETE_MARKER,
  KNOWN_MODELS,
  type ModelManifest,
  manifestFor,
  REQUIRED_LOCAL_FILES,
  validateModelName,
} from "./model-files.js";

/** Where model files are downloaded from by default (the Hugging Face hub). */
export const DEFAULT_MODEL_BASE_URL = "https://huggingface.co";
const DEFAULT_STALL_TIMEOUT_MS = 60_000;

/** What ensureModelFiles needs: the workspace the files go under, the model, and how to download them. */
export interface EnsureModelFilesOptions {
  workspaceDir: string;
  model: string;
  /** Where `${repo}/resolve/main/${remotePath}` is fetched from. Default the Hugging Face hub. */
  baseUrl?: string;
  /** Overrides the known models' entry (or describes a model this package does not know). */
  manifest?: ModelManifest;
  fetch?: FetchLike;
  /** Sent with every request, e.g. `{ Authorization: "Bearer hf_…" }` for gated repositories. */
  headers?: Record<string, string>;
  /** Abort a download when no bytes arrive for this long. Default 60 s. */
  stallTimeoutMs?: number;
  signal?: AbortSignal;
  /** false = never fetch: a missing file is UNAVAILABLE. Default true. */
  download?: boolean;
  /** Told as each file downloads: the bytes received so far and, when the server says, the total. */
  onProgress?: (file: string, receivedBytes: number, totalBytes?: number) => void;
}

/** A model's files on disk, ready to load. */
export interface ModelFiles {
  dir: string;
  /** Absolute paths by local name (model.onnx, tokenizer.json, config.json, …). */
  files: Record<string, string>;
  /** The names fetched by this call; empty when everything was already present. */
  downloaded: string[];
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}

/** Makes renames and the marker durable: a crash after this cannot lose a "complete" model's files. */
async function syncDir(dir: string): Promise<void> {
  const handle = await open(dir, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

// Two providers opening the same model in one process must not write the same .part at once.
const inFlight = new Map<string, Promise<ModelFiles>>();

/**
 * Ensures every file of the model is present. Known models (or a `manifest`) are downloaded when
 * missing; an unknown model name is fine when its files are already there (a custom model).
 */
export function ensureModelFiles(options: EnsureModelFilesOptions): Promise<ModelFiles> {
  const dir = join(options.workspaceDir, "models", validateModelName(options.model));
  const running = inFlight.get(dir);
  if (running !== undefined) return running;
  const work = ensure(dir, options).finally(() => inFlight.delete(dir));
  inFlight.set(dir, work);
  return work;
}

async function ensure(dir: string, options: EnsureModelFilesOptions): Promise<ModelFiles> {
  const manifest = manifestFor(options.model, options.manifest);
  if (manifest === undefined) return customModel(dir, options.model);

  const files = Object.fromEntries(manifest.files.map((file) => [file.name, join(dir, file.name)]));
  const missing = [];
  for (const file of manifest.files) {
    if (!(await exists(join(dir, file.name)))) missing.push(file);
  }
  const markerPath = join(dir, COMPLETE_MARKER);
  if (missing.length === 0 && (await exists(markerPath))) return { dir, files, downloaded: [] };

  if (missing.length > 0 && options.download === false) {
    throw new MemoryError(
      "UNAVAILABLE",
      `model "${options.model}" is not installed in ${dir} (missing ${missing.map((f) => f.name).join(", ")}) and downloads are off`,
    );
  }
  await mkdir(dir, { recursive: true });
  // Another process may be downloading the same model: wait for it, then take what it finished.
  return withDownloadLock(dir, () => download(dir, options, manifest, files), { signal: options.signal });
}

async function download(
  dir: string,
  options: EnsureModelFilesOptions,
  manifest: NonNullable<ReturnType<typeof manifestFor>>,
  files: Record<string, string>,
): Promise<ModelFiles> {
  const markerPath = join(dir, COMPLETE_MARKER);
  const missing = [];
  for (const file of manifest.files) {
    if (!(await exists(join(dir, file.name)))) missing.push(file);
  }
  if (missing.length === 0 && (await exists(markerPath))) return { dir, files, downloaded: [] };
  const baseUrl = (options.baseUrl ?? DEFAULT_MODEL_BASE_URL).replace(/\/+$/, "");
  for (const file of missing) {
    const remote = file.remotePath.split("/").map(encodeURIComponent).join("/");
    await downloadFile({
      url: `${baseUrl}/${manifest.repo}/resolve/main/${remote}`,
      path: join(dir, file.name),
      fetch: options.fetch ?? globalThis.fetch,
      stallTimeoutMs: options.stallTimeoutMs ?? DEFAULT_STALL_TIMEOUT_MS,
      ...(file.sha256 !== undefined && { sha256: file.sha256 }),
      ...(file.size !== undefined && { size: file.size }),
      ...(options.headers !== undefined && { headers: options.headers }),
      ...(options.signal !== undefined && { signal: options.signal }),
      onProgress: (received, total) => options.onProgress?.(file.name, received, total),
    });
  }
  await syncDir(dir);
  // The marker goes last (temp + rename too), so its presence means every file above is in place.
  const marker = JSON.stringify({
    model: options.model,
    repo: manifest.repo,
    files: manifest.files.map((file) => file.name),
    completedAt: new Date().toISOString(),
  });
  await writeFile(`${markerPath}.part`, `${marker}\n`);
  await rename(`${markerPath}.part`, markerPath);
  await syncDir(dir);
  return { dir, files, downloaded: missing.map((file) => file.name) };
}

async function customModel(dir: string, model: string): Promise<ModelFiles> {
  const files: Record<string, string> = {};
  const missing: string[] = [];
  for (const name of [...REQUIRED_LOCAL_FILES, "config.json", "tokenizer_config.json"]) {
    const path = join(dir, name);
    if (await exists(path)) files[name] = path;
    else if ((REQUIRED_LOCAL_FILES as readonly string[]).includes(name)) missing.push(name);
  }
  if (missing.length > 0) {
    throw MemoryError.invalidInput(
      "model",
      `"${model}" is not a model this package can download (known: ${Object.keys(KNOWN_MODELS).join(", ")}) ` +
        `and ${dir} lacks ${missing.join(", ")}; put the files there or pass a manifest`,
    );
  }
  return { dir, files, downloaded: [] };
}
