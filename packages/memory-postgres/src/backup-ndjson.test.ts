// Memory.backup() on PostgreSQL (PGlite, and the server CLAW_MEMORY_PG_URL names): NDJSON of every
// entry with its vector, which import() turns back into the same entries in another store, then a
// `{"history": …}` line per version of every key (replace-history.test.ts puts them back).
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BackupProgress, MemoryEntry, MemoryVersion } from "@claw/memory-api";
import { createHashingEmbeddingProvider } from "@claw/memory-core";
import { describe, expect, it, onTestFinished } from "vitest";
import { forEachTestDatabase } from "./test-support/test-database.js";
import { openTestMemory, schemaOf } from "./test-support/test-memory.js";

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "claw-pg-backup-"));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** The entry lines of a backup (those before its history lines), and its versions. */
function partsOf(path: string): { entries: Array<Record<string, unknown>>; versions: MemoryVersion[] } {
  const lines = linesOf(path);
  const first = lines.findIndex((line) => "history" in line);
  const entries = first < 0 ? lines : lines.slice(0, first);
  const history = first < 0 ? [] : lines.slice(first);
  for (const line of history) expect(Object.keys(line)).toEqual(["history"]);
  return { entries, versions: history.map((line) => line.history as MemoryVersion) };
}

function linesOf(path: string): Array<Record<string, unknown>> {
  const text = readFileSync(path, "utf8");
  expect(text === "" || text.endsWith("\n")).toBe(true);
  return text
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** What must survive a backup and its import, vectors as plain arrays. */
function comparable(entries: readonly MemoryEntry[]) {
  return entries
    .map(({ embedding, timestamp: _t, ...rest }) => ({
      ...rest,
      embedding: embedding && Array.from(embedding),
    }))
    .sort((a, b) => `${a.namespace}/${a.key}`.localeCompare(`${b.namespace}/${b.key}`));
}

forEachTestDatabase((database) => {
  describe("backup on PostgreSQL", () => {
    const embeddings = createHashingEmbeddingProvider({ dimensions: 8 });
    const settings = { deferEmbedding: false };

    it("writes every live entry with its vector as NDJSON, which import() restores as it was", async () => {
      const memory = await openTestMemory(database(), { embeddings, settings });
      await memory.store("tz", "The user lives in Lisbon", { metadata: { source: "chat" }, importance: 0.9 });
      await memory.store("turn", "hello there", {
        namespace: "other",
        sessionId: "s1",
        category: "conversation",
      });
      await memory.import([
        { key: "old", content: "an expired offer", expiresAt: "2020-01-01T00:00:00Z" },
        { key: "plain", content: "no metadata here", category: "daily" },
      ]);
      const path = join(tempDir(), "store.ndjson");
      const calls: BackupProgress[] = [];
      const report = await memory.backup(path, { onProgress: (p) => calls.push({ ...p }) });
      // 3 live entries; 4 versions (one a key, the expired entry's included).
      expect(report).toEqual({ path, entries: 3, versions: 4, bytes: statSync(path).size });
      // Private, as export's files are.
      expect(statSync(path).mode & 0o777).toBe(0o600);
      expect(calls.at(0)).toEqual({ done: 0, total: 7 });
      expect(calls.at(-1)).toEqual({ done: 7, total: 7 });

      const { entries: lines, versions } = partsOf(path);
      expect(lines.map((l) => l.key).sort()).toEqual(["plain", "turn", "tz"]);
      for (const line of lines) expect((line.embedding as number[]).length).toBe(8);
      // Each version as history() lists it, but the expired entry's, which is current no more.
      expect(versions.map((v) => `${v.namespace}/${v.key}`)).toEqual([
        "default/old",
        "default/plain",
        "default/tz",
        "other/turn",
      ]);
      for (const version of versions) {
        const [shown] = await memory.history(version.key, { namespace: version.namespace });
        expect(version).toEqual(version.key === "old" ? { ...shown, current: false } : shown);
      }

      const copy = await openTestMemory(database(), { embeddings, settings });
      expect(await copy.import(lines as Array<Partial<MemoryEntry>>)).toBe(3);
      expect(comparable(await copy.export({ includeEmbeddings: true }))).toEqual(
        comparable(await memory.export({ includeEmbeddings: true })),
      );
    });

    it("writes a kept version that repeats the live one's number once, as history() shows it", async () => {
      const memory = await openTestMemory(database());
      await memory.store("k", "first");
      await memory.store("k", "second");
      // A twin of the live version 2 in the versions table (history() shows the live row only).
      await database().query(
        `INSERT INTO "${schemaOf(memory)}".claw_memory_versions (namespace, key, version, id, action, actor,
           at, deleted, content, category)
         VALUES ('default', 'k', 2, 'twin', 'update', 'someone', now(), false, 'a twin', 'core')`,
      );
      const shown = await memory.history("k");
      expect(shown.map((v) => [v.version, v.content])).toEqual([
        [2, "second"],
        [1, "first"],
      ]);
      const path = join(tempDir(), "twin.ndjson");
      const calls: BackupProgress[] = [];
      expect(await memory.backup(path, { onProgress: (p) => calls.push({ ...p }) })).toMatchObject({
        entries: 1,
        versions: 2,
      });
      expect(partsOf(path).versions).toEqual([...shown].reverse());
      expect(calls.at(-1)).toEqual({ done: 3, total: 3 });
    });

    it("writes an empty file for an empty store", async () => {
      const memory = await openTestMemory(database());
      const path = join(tempDir(), "empty.ndjson");
      const calls: BackupProgress[] = [];
      expect(await memory.backup(path, { onProgress: (p) => calls.push(p) })).toEqual({
        path,
        entries: 0,
        versions: 0,
        bytes: 0,
      });
      expect(calls).toEqual([{ done: 0, total: 0 }]);
    });

    it("is one snapshot across its pages: a write by another server meanwhile is not in it", async () => {
      const memory = await openTestMemory(database());
      await memory.import(Array.from({ length: 1200 }, (_, i) => ({ key: `k${i}`, content: `entry ${i}` })));
      const other = await openTestMemory(database(), { schema: schemaOf(memory) });
      let late: Promise<unknown> | undefined;
      const calls: BackupProgress[] = [];
      const path = join(tempDir(), "snapshot.ndjson");
      const report = await memory.backup(path, {
        onProgress: (p) => {
          calls.push(p);
          // After the first page: another server adds an entry and changes one already read.
          if (p.done > 0 && late === undefined)
            late = Promise.all([other.store("late", "written meanwhile"), other.store("k0", "changed")]);
        },
      });
      await late;
      expect(report).toMatchObject({ entries: 1200, versions: 1200 });
      const { entries: lines, versions } = partsOf(path);
      expect(lines).toHaveLength(1200);
      expect(lines.some((l) => l.key === "late")).toBe(false);
      expect(lines.find((l) => l.key === "k0")?.content).toBe("entry 0");
      // The history too, across its pages: every key once, as it was when the backup began.
      expect(versions).toHaveLength(1200);
      expect(new Set(versions.map((v) => v.key)).size).toBe(1200);
      expect(versions.every((v) => v.version === 1 && v.current && v.action === "create")).toBe(true);
      expect(versions.find((v) => v.key === "k0")?.content).toBe("entry 0");
      const dones = calls.map((c) => c.done);
      expect(dones).toEqual([...dones].sort((a, b) => a - b));
      expect(calls.at(-1)).toEqual({ done: 2400, total: 2400 });
    });

    it("refuses an empty path (INVALID_INPUT naming path)", async () => {
      const memory = await openTestMemory(database());
      const error = await memory.backup(" ").catch((e: unknown) => e);
      expect(error).toMatchObject({ code: "INVALID_INPUT", field: "path" });
    });
  });
});
