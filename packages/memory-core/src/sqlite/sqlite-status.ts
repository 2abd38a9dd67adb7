import { statSync } from "node:fs";
import type { MemoryError, MemoryStatus } from "@claw/memory-api";
import type { Database } from "better-sqlite3";
import type { EmbeddingWorker } from "../embedding/embedding-worker.js";
import { emptyStatus } from "../none-memory.js";
import { storageFailure } from "../storage-failure.js";
import { type DamageWatch, damageAdvice } from "./damage-watch.js";
import { SCHEMA_VERSION } from "./schema/schema.js";
import type { VectorIndex } from "./vectors/vector-index.js";

export interface StatusSources {
  db: Database;
  path: string;
  worker: EmbeddingWorker | null;
  vectors: VectorIndex;
}

/** What status() reports for a SQLite store: counts, sizes and the embedding state (the façade adds why it degrades). */
export function readStatus(sources: StatusSources): MemoryStatus {
  const counts = sources.db
    .prepare(
      "SELECT count(*) AS entries, count(DISTINCT namespace) AS namespaces, sum(embedding IS NULL) AS missing FROM memories",
    )
    .get() as { entries: number; namespaces: number; missing: number | null };
  const provider = sources.worker?.provider;
  const pending = sources.worker?.pending ?? 0;
  const status: MemoryStatus = {
    backend: "sqlite",
    path: sources.path,
    entries: counts.entries,
    namespaces: counts.namespaces,
    pendingEmbeddings: pending,
    missingEmbeddings: provider ? Math.max(0, (counts.missing ?? 0) - pending) : 0,
    embedding: provider
      ? { provider: provider.id, model: provider.model, dimensions: provider.dimensions }
      : null,
    vector: provider ? sources.vectors.kind : "none",
    fts: true,
    ftsEngine: "sqlite fts5",
    schemaVersion: SCHEMA_VERSION,
  };
  const size = fileSize(sources.path) + fileSize(`${sources.path}-wal`);
  if (size > 0) status.sizeBytes = size;
  return status;
}

/**
 * readStatus(), and what is known of damage to the file: `corrupt` (and a warning) says what and
 * the command to run. Counting a damaged table can itself fail: the status then has no counts.
 */
export function readStatusOf(
  sources: StatusSources,
  damage: DamageWatch,
  notice: (error: MemoryError) => void,
): MemoryStatus {
  let status: MemoryStatus;
  try {
    status = readStatus(sources);
  } catch (error) {
    const failure = storageFailure(error);
    notice(failure);
    if (failure.code !== "CORRUPT") throw failure;
    status = { ...emptyStatus("sqlite", SCHEMA_VERSION), path: sources.path };
  }
  const note = damage.note;
  if (note !== null) {
    const advice = damageAdvice(sources.path, note);
    status.corrupt = advice;
    status.warnings = [...(status.warnings ?? []), advice];
  }
  return status;
}

function fileSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0; // absent (":memory:" or no WAL yet)
  }
}
