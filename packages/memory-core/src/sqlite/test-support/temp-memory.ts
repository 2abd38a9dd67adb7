import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { EmbeddingProvider, Logger } from "@claw/memory-api";
import { onTestFinished } from "vitest";
import { DEFAULT_CONFIG, type MemorySettings } from "../../config/config-schema.js";
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

// Shared with every backend's contract tests.
export { capturingLogger, countingProvider } from "../../testkit/contract-harness.js";
