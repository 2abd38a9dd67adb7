import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { EmbeddingProvider, Logger, MemoryEntry } from "@claw/memory-api";
import Database from "better-sqlite3";
import { onTestFinished } from "vitest";
import { DEFAULT_CONFIG, type MemorySettings } from "../../config/config-schema.js";
import { createStatementCache, type StatementCache } from "../schema/statement-cache.js";
import { SqliteMemory } from "../sqlite-memory.js";

/** A fresh directory removed after the test. */
export function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "claw-memory-test-"));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export interface TestMemoryOptions {
  settings?: Partial<MemorySettings>;
  embeddings?: EmbeddingProvider | null;
  now?: () => Date;
  logger?: Logger;
  path?: string;
  loadVectorExtension?: boolean;
}

/** A SqliteMemory on a real file in a temp directory, closed after the test. */
export function openTestMemory(options: TestMemoryOptions = {}): SqliteMemory {
  const path = options.path ?? join(tempDir(), "brain.db");
  const memory = SqliteMemory.open({
    path,
    settings: { ...DEFAULT_CONFIG.memory, ...options.settings },
    embeddings: options.embeddings ?? null,
    now: options.now,
    logger: options.logger,
    loadVectorExtension: options.loadVectorExtension,
  });
  onTestFinished(() => memory.close());
  return memory;
}

/**
 * A store filled by one import and closed, then opened read-only as a search reads it: the
 * connection (closed after the test) and its statement cache.
 */
export async function importedStore(
  entries: Partial<MemoryEntry>[],
): Promise<{ db: Database.Database; statements: StatementCache }> {
  const path = join(tempDir(), "brain.db");
  const memory = openTestMemory({ path });
  await memory.import(entries);
  await memory.close();
  const db = new Database(path, { readonly: true });
  onTestFinished(() => {
    db.close();
  });
  return { db, statements: createStatementCache(db) };
}

// Shared with every backend's contract tests.
export { capturingLogger, countingProvider } from "../../testkit/contract-harness.js";
