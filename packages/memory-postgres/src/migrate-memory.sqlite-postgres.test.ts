import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { MemoryEntry } from "@claw/memory-api";
import {
  createHashingEmbeddingProvider,
  DEFAULT_CONFIG,
  migrateMemory,
  SqliteMemory,
} from "@claw/memory-core";
import { capturingLogger, countingProvider } from "@claw/memory-core/testkit";
import { describe, expect, it, onTestFinished } from "vitest";
import { forEachTestDatabase } from "./test-support/test-database.js";
import { openTestMemory } from "./test-support/test-memory.js";

const ENTRIES = 10_000;
const hashing = () => createHashingEmbeddingProvider({ dimensions: 32 });

function openSqlite(embeddings = hashing()): SqliteMemory {
  const dir = mkdtempSync(join(tmpdir(), "claw-migrate-"));
  const memory = SqliteMemory.open({
    path: join(dir, "brain.db"),
    settings: DEFAULT_CONFIG.memory,
    embeddings,
  });
  onTestFinished(async () => {
    await memory.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return memory;
}

function generated(): Array<Partial<MemoryEntry>> {
  return Array.from({ length: ENTRIES }, (_, i) => ({
    id: `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`,
    key: `note-${i}`,
    content: `note ${i}: ${["garden", "kitchen", "office", "travel"][i % 4]} item ${i * 7}`,
    category: ["core", "daily", "conversation", "project"][i % 4],
    namespace: i % 10 === 0 ? "tenant-a" : "default",
    sessionId: i % 3 === 0 ? `session-${i % 50}` : undefined,
    importance: (i % 10) / 10,
    supersededBy: i % 97 === 0 ? `note-${i + 1}` : undefined,
    createdAt: new Date(Date.UTC(2024, 0, 1) + i * 60_000).toISOString(),
    updatedAt: new Date(Date.UTC(2024, 6, 1) + i * 61_000).toISOString(),
    source: i % 11 === 0 ? { path: `notes/${i}.md`, startLine: 1, endLine: i + 1 } : undefined,
  }));
}

const sorted = (entries: MemoryEntry[]) =>
  [...entries].sort((a, b) => `${a.namespace}/${a.key}`.localeCompare(`${b.namespace}/${b.key}`));

forEachTestDatabase((database) => {
  describe("migrateMemory: SQLite → PostgreSQL → SQLite", () => {
    it("round-trips 10 000 entries with their vectors and timestamps, resumably", {
      timeout: 600_000,
    }, async () => {
      const source = openSqlite();
      await source.import(generated());
      await source.flush();
      const original = sorted(await source.export({ includeEmbeddings: true }));
      expect(original).toHaveLength(ENTRIES);
      expect(original.every((e) => e.embedding?.length === 32)).toBe(true);

      const counting = countingProvider(hashing());
      const postgres = await openTestMemory(database(), {
        embeddings: counting.provider,
        logger: capturingLogger(),
      });
      const progress: number[] = [];
      const report = await migrateMemory(source, postgres, {
        batchSize: 2_000,
        onProgress: (done) => progress.push(done),
      });
      expect(report).toEqual({ total: ENTRIES, copied: ENTRIES, skipped: 0 });
      expect(progress).toEqual([0, 2_000, 4_000, 6_000, 8_000, 10_000]);
      expect(counting.calls.texts).toBe(0); // every vector came along
      expect(await postgres.count({ namespace: "*" })).toBe(ENTRIES);
      expect(sorted(await postgres.export({ includeEmbeddings: true }))).toEqual(original);
      expect(await migrateMemory(source, postgres)).toEqual({ total: ENTRIES, copied: 0, skipped: ENTRIES });

      const back = openSqlite();
      await migrateMemory(postgres, back, { batchSize: 5_000 });
      expect(sorted(await back.export({ includeEmbeddings: true }))).toEqual(original);
      const found = await postgres.recall("kitchen item 7", { namespace: "default", limit: 3 });
      expect(found.map((e) => e.key)).toContain("note-1");
    });
  });
});
