// File work shared by backup and restore: temp names beside a target, fsync of files and folders,
// the companion files SQLite keeps beside a database, and the refusal to write over a live one.
import { randomBytes } from "node:crypto";
import { existsSync, realpathSync } from "node:fs";
import { open, rm } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { MemoryError } from "@claw/memory-api";

/** The files SQLite may keep beside a database: its write-ahead log, its shared memory, its journal. */
export const COMPANION_SUFFIXES = ["-wal", "-shm", "-journal"] as const;

/** A name for a temp file in `target`'s folder (same file system: a rename is atomic). */
export function tempBeside(target: string, purpose: string): string {
  return join(dirname(target), `.${basename(target)}.${randomBytes(6).toString("hex")}.${purpose}-tmp`);
}

/** Removes `path` and any companion file SQLite left beside it; nothing when they are gone. */
export async function removeWithCompanions(path: string): Promise<void> {
  await Promise.all(
    [path, ...COMPANION_SUFFIXES.map((suffix) => `${path}${suffix}`)].map((p) => rm(p, { force: true })),
  );
}

/** Flushes a file's data to the disk. */
export async function syncFile(path: string): Promise<void> {
  const handle = await open(path, "r+");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Flushes a folder's entries (a rename into it) to the disk, where the platform allows it. */
export async function syncFolder(dir: string): Promise<void> {
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    handle = await open(dir, "r");
    await handle.sync();
  } catch {
    // Some platforms and file systems cannot fsync a folder; the rename itself has happened.
  } finally {
    await handle?.close();
  }
}

/** The file `path` names, links followed as far as they exist. */
function realTarget(path: string): string {
  const absolute = resolve(path);
  if (existsSync(absolute)) return realpathSync(absolute);
  const dir = dirname(absolute);
  return join(existsSync(dir) ? realpathSync(dir) : dir, basename(absolute));
}

/**
 * INVALID_INPUT naming `field` when `target` is the live database `dbPath` or one of its companion
 * files (a rename onto either would destroy the store), `hint` saying what to do instead. `dbPath`
 * ":memory:" has none.
 */
export function assertNotLiveDatabase(target: string, dbPath: string, field: string, hint: string): void {
  if (dbPath === "" || dbPath === ":memory:" || dbPath.startsWith("file:")) return;
  const live = realTarget(dbPath);
  const real = realTarget(target);
  for (const candidate of [live, ...COMPANION_SUFFIXES.map((suffix) => `${live}${suffix}`)]) {
    if (real === candidate) {
      throw MemoryError.invalidInput(
        field,
        `${target} is the live database${candidate === live ? "" : "'s companion file"} (${live}): ${hint}`,
      );
    }
  }
}
