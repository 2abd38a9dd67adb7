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

/** A logger that keeps what it was told, for asserting on warnings. */
export function capturingLogger(): Logger & { warnings: string[] } {
  const warnings: string[] = [];
  return {
    warnings,
    debug() {},
    info() {},
    warn(message) {
      warnings.push(message);
    },
    error(message) {
      warnings.push(message);
    },
  };
}

/** Wraps a provider to count calls by purpose and optionally hold them until released. */
export function countingProvider(inner: EmbeddingProvider) {
  const calls = { query: 0, document: 0, texts: 0 };
  let gate: Promise<void> | null = null;
  let release: () => void = () => {};
  const provider: EmbeddingProvider = {
    id: inner.id,
    model: inner.model,
    dimensions: inner.dimensions,
    async embed(texts, options) {
      calls[options?.purpose ?? "document"]++;
      calls.texts += texts.length;
      if (gate !== null) await gate;
      return inner.embed(texts, options);
    },
  };
  return {
    provider,
    calls,
    hold() {
      gate = new Promise((resolve) => {
        release = () => {
          gate = null;
          resolve();
        };
      });
    },
    release: () => release(),
  };
}
