import { open, readFile, rm, stat, utimes } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";
import { MemoryError } from "@claw/memory-api";

export const LOCK_FILE = ".download.lock";

export interface DownloadLockOptions {
  signal?: AbortSignal;
  /** How often a waiting process looks again. Default 250 ms. */
  pollMs?: number;
  /** A lock not refreshed for this long is abandoned (its holder hung or its host is gone). Default 2 min. */
  staleMs?: number;
}

interface LockOwner {
  pid: number;
  host: string;
}

/**
 * Runs `work` while holding `{dir}/.download.lock`, so two processes never download the same
 * model into the same `.part` files at once. The lock file is created exclusively; a waiting
 * process polls until it is gone, and takes it over when its holder has died (same host, pid
 * gone) or stopped refreshing it (`staleMs`). The holder refreshes it while working.
 */
export async function withDownloadLock<T>(
  dir: string,
  work: () => Promise<T>,
  options: DownloadLockOptions = {},
): Promise<T> {
  const path = join(dir, LOCK_FILE);
  const staleMs = options.staleMs ?? 120_000;
  await acquire(path, staleMs, options);
  const refresh = setInterval(
    () => {
      const now = new Date();
      // A failed touch only ages the lock; the next tick touches it again.
      utimes(path, now, now).catch(() => {});
    },
    Math.max(50, staleMs / 3),
  );
  refresh.unref();
  try {
    return await work();
  } finally {
    clearInterval(refresh);
    await rm(path, { force: true });
  }
}

async function acquire(path: string, staleMs: number, options: DownloadLockOptions): Promise<void> {
  const owner: LockOwner = { pid: process.pid, host: hostname() };
  for (;;) {
    options.signal?.throwIfAborted();
    try {
      const handle = await open(path, "wx", 0o600);
      try {
        await handle.writeFile(JSON.stringify(owner));
      } finally {
        await handle.close();
      }
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") {
        throw new MemoryError("STORAGE", `cannot create ${path}: ${(error as Error).message}`, {
          cause: error,
        });
      }
    }
    if (await abandoned(path, staleMs)) {
      await rm(path, { force: true });
      continue;
    }
    await wait(options.pollMs ?? 250, options.signal);
  }
}

/** True when the lock's holder is gone: a dead pid on this host, or no refresh for `staleMs`. */
async function abandoned(path: string, staleMs: number): Promise<boolean> {
  try {
    const [text, info] = await Promise.all([readFile(path, "utf8"), stat(path)]);
    if (Date.now() - info.mtimeMs > staleMs) return true;
    const holder = JSON.parse(text) as Partial<LockOwner>;
    if (holder.host !== hostname() || typeof holder.pid !== "number") return false;
    return !isAlive(holder.pid);
  } catch {
    // Released meanwhile (ENOENT) or half-written by a holder that just created it: look again.
    return false;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function wait(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}
