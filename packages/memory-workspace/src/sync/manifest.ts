// What the last sync indexed, per file: kept as JSON under `.claw-memory/`, outside the entries.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Logger, Memory } from "@claw/memory-api";
import { MemoryError } from "@claw/memory-api";
import { contentHash, writeFileAtomic } from "@claw/memory-core";

export const MANIFEST_VERSION = 1;
/** The folder in the workspace where the index keeps its state (the manifest). */
export const STATE_DIR = ".claw-memory";

export interface FileRecord {
  /** contentHash of the text indexed; "" while a write is in flight (so a crash means "changed"). */
  hash: string;
  size: number;
  mtimeMs: number;
  /** Wall-clock ms when the text was read; decides whether size + mtime may stand in for the hash. */
  checkedAt: number;
  /** Every key the file's entries may have; a superset while a write is in flight. */
  keys: string[];
  /** The first entry and its id when written: a database that lost or replaced it is detected. */
  probe?: { key: string; id: string };
  /** Transcripts: JSONL lines indexed. */
  lines?: number;
}

export interface Manifest {
  version: number;
  namespace: string;
  /** The database the entries live in (its path), so two databases never share a manifest. */
  database: string;
  files: Record<string, FileRecord>;
  sessions: Record<string, FileRecord>;
}

/** `.claw-memory/index-<hash>.json`, one per (database, namespace) indexing this workspace. */
export function manifestPath(workspaceDir: string, database: string, namespace: string): string {
  return join(workspaceDir, STATE_DIR, `index-${contentHash(`${database}\0${namespace}`)}.json`);
}

export function emptyManifest(database: string, namespace: string): Manifest {
  return { version: MANIFEST_VERSION, namespace, database, files: {}, sessions: {} };
}

/** The manifest, or null when there is none or it belongs to another database or format. */
export async function loadManifest(
  path: string,
  database: string,
  namespace: string,
  logger: Logger,
): Promise<Manifest | null> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT")
      logger.warn("workspace: cannot read the index manifest; checking every entry", {
        path,
        error: (error as Error).message,
      });
    return null;
  }
  try {
    const parsed = JSON.parse(text) as Manifest;
    if (
      parsed?.version !== MANIFEST_VERSION ||
      parsed.namespace !== namespace ||
      parsed.database !== database ||
      typeof parsed.files !== "object" ||
      typeof parsed.sessions !== "object"
    )
      return null;
    return parsed;
  } catch (error) {
    logger.warn("workspace: the index manifest is damaged; checking every entry", {
      path,
      error: (error as Error).message,
    });
    return null;
  }
}

export async function saveManifest(path: string, manifest: Manifest): Promise<void> {
  try {
    await writeFileAtomic(path, `${JSON.stringify(manifest, null, 1)}\n`);
  } catch (error) {
    throw new MemoryError("STORAGE", `cannot write the index manifest ${path}: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

/**
 * True when every recorded probe entry still exists with the id it had: the entries are the ones
 * the manifest describes. A deleted or restored brain.db fails this and triggers a reconcile.
 */
export async function probesHold(memory: Memory, namespace: string, manifest: Manifest): Promise<boolean> {
  for (const record of [...Object.values(manifest.files), ...Object.values(manifest.sessions)]) {
    if (record.probe === undefined) continue;
    const entry = await memory.get(record.probe.key, { namespace });
    if (entry?.id !== record.probe.id) return false;
  }
  return true;
}
