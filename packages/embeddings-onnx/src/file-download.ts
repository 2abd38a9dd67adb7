// Downloads one file into `<file>.part`, resuming with a Range request, verifies it, then renames it into place.
import { createHash, type Hash } from "node:crypto";
import { createReadStream } from "node:fs";
import { open, rename, rm, stat } from "node:fs/promises";
import { basename } from "node:path";
import { MemoryError } from "@claw/memory-api";

/** The part of `fetch` the model download uses; tests and proxies pass their own. */
export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

export interface DownloadFileOptions {
  url: string;
  /** The final path; the bytes go to `${path}.part` until they are verified. */
  path: string;
  fetch: FetchLike;
  sha256?: string;
  size?: number;
  headers?: Record<string, string>;
  /** Abort when no bytes arrive for this long (a stalled connection, not a slow one). */
  stallTimeoutMs: number;
  signal?: AbortSignal;
  onProgress?: (receivedBytes: number, totalBytes?: number) => void;
}

function unavailable(file: string, message: string, cause?: unknown): MemoryError {
  return new MemoryError("UNAVAILABLE", `model file ${file}: ${message}`, { cause });
}

async function sizeOf(path: string): Promise<number> {
  try {
    return (await stat(path)).size;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return 0;
    throw error;
  }
}

/** "bytes 100-199/200" → its start and total (total undefined for "*"). */
function parseContentRange(value: string | null): { start: number; total?: number } | undefined {
  const match = /^bytes (\d+)-\d+\/(\d+|\*)$/.exec(value?.trim() ?? "");
  if (match === null) return undefined;
  return { start: Number(match[1]), total: match[2] === "*" ? undefined : Number(match[2]) };
}

async function hashExisting(hash: Hash, path: string): Promise<void> {
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
}

/**
 * Never leaves a file under its final name unless every byte was checked: a cut connection keeps
 * the `.part` (the next call resumes it), a wrong length or digest deletes it.
 */
export async function downloadFile(options: DownloadFileOptions, restarted = false): Promise<void> {
  const file = basename(options.path);
  const partPath = `${options.path}.part`;
  const existing = await sizeOf(partPath);
  const headers: Record<string, string> = { ...options.headers };
  if (existing > 0) headers.Range = `bytes=${existing}-`;

  const controller = new AbortController();
  const onAbort = () => controller.abort(options.signal?.reason);
  options.signal?.addEventListener("abort", onAbort, { once: true });
  let timer: NodeJS.Timeout | undefined;
  const armStallTimer = () => {
    clearTimeout(timer);
    timer = setTimeout(
      () => controller.abort(new Error(`no data for ${options.stallTimeoutMs} ms`)),
      options.stallTimeoutMs,
    );
  };
  try {
    armStallTimer();
    let response: Response;
    try {
      response = await options.fetch(options.url, { headers, signal: controller.signal, redirect: "follow" });
    } catch (error) {
      throw unavailable(file, `cannot reach ${options.url}: ${(error as Error).message}`, error);
    }
    // The .part is stale or already complete for a changed remote file: start over once.
    if (response.status === 416 && existing > 0 && !restarted) {
      await response.body?.cancel();
      await rm(partPath, { force: true });
      return await downloadFile(options, true);
    }
    if (response.status !== 200 && response.status !== 206) {
      await response.body?.cancel();
      throw unavailable(file, `HTTP ${response.status} from ${options.url}`);
    }
    let start = 0;
    let total: number | undefined;
    const length = response.headers.get("content-length");
    if (response.status === 206) {
      const range = parseContentRange(response.headers.get("content-range"));
      if (range === undefined || range.start !== existing) {
        await response.body?.cancel();
        throw unavailable(file, `the server answered a range request with a range we did not ask for`);
      }
      start = existing;
      total = range.total ?? (length === null ? undefined : existing + Number(length));
    } else {
      total = length === null ? undefined : Number(length);
    }
    if (options.size !== undefined && total !== undefined && total !== options.size) {
      await response.body?.cancel();
      throw unavailable(file, `the server offers ${total} bytes, expected ${options.size}`);
    }

    const hash = options.sha256 === undefined ? undefined : createHash("sha256");
    if (hash !== undefined && start > 0) await hashExisting(hash, partPath);
    // A 200 answer to a range request means the server ignored it: rewrite from the beginning.
    const handle = await open(partPath, start > 0 ? "a" : "w");
    let received = start;
    try {
      options.onProgress?.(received, total);
      if (response.body !== null) {
        for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
          armStallTimer();
          await handle.write(chunk);
          hash?.update(chunk);
          received += chunk.byteLength;
          options.onProgress?.(received, total);
        }
      }
      await handle.sync();
    } catch (error) {
      // Keep what arrived: the next attempt resumes from it.
      throw unavailable(
        file,
        `download interrupted after ${received} bytes: ${(error as Error).message}`,
        error,
      );
    } finally {
      await handle.close();
    }

    const expected = total ?? options.size;
    if (expected !== undefined && received !== expected) {
      // Too short: keep the .part so the next attempt resumes; too long: it cannot be right.
      if (received > expected) await rm(partPath, { force: true });
      throw unavailable(file, `received ${received} bytes, expected ${expected}`);
    }
    if (hash !== undefined && options.sha256 !== undefined) {
      const digest = hash.digest("hex");
      if (digest !== options.sha256.toLowerCase()) {
        await rm(partPath, { force: true });
        throw unavailable(file, `sha256 ${digest} does not match the expected ${options.sha256}`);
      }
    }
    await rename(partPath, options.path);
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener("abort", onAbort);
  }
}
