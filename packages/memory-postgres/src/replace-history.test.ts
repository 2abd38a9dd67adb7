// History through a PostgreSQL backup (PGlite, and the server CLAW_MEMORY_PG_URL names): the
// backup's `{"history": …}` lines, put back by replaceHistory() after its entries were imported into
// an empty store, give every key the history it had — numbers, actions, actors, times, contents,
// forgotten keys' tombstones — and restore() of an old version works there.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Memory, MemoryEntry, MemoryVersion } from "@claw/memory-api";
import { createHashingEmbeddingProvider } from "@claw/memory-core";
import { describe, expect, it, onTestFinished } from "vitest";
import { forEachTestDatabase, type TestDatabase } from "./test-support/test-database.js";
import { openTestMemory, schemaOf } from "./test-support/test-memory.js";

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "claw-pg-history-"));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** The backup's lines, split into its entries and its versions (in file order). */
function backupLines(path: string): { entries: Array<Partial<MemoryEntry>>; versions: MemoryVersion[] } {
  const lines = readFileSync(path, "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  const first = lines.findIndex((line) => "history" in line);
  const entries = first < 0 ? lines : lines.slice(0, first);
  const history = first < 0 ? [] : lines.slice(first);
  // Entry lines first, then only history lines, each `{"history": …}` and nothing else.
  for (const line of history) expect(Object.keys(line)).toEqual(["history"]);
  for (const line of entries) expect("history" in line).toBe(false);
  return { entries, versions: history.map((line) => line.history as MemoryVersion) };
}

/** The (namespace, key) pairs the scenario writes, forgotten and expired ones included. */
const KEYS = [
  ["default", "tz"],
  ["default", "pet"],
  ["default", "car"],
  ["default", "summary"],
  ["default", "note-a"],
  ["default", "note-b"],
  ["default", "old-fact"],
  ["default", "promo"],
  ["default", "stale"],
  ["tenant", "plan"],
] as const;

/**
 * A store whose keys each have several versions: updates, a restore, a forget, a create after a
 * forget, a supersede, a merge (two notes merged into a summary by the curator), a prune, another
 * actor, another namespace, and an entry whose latest version has expired.
 */
async function writeScenario(memory: Memory): Promise<void> {
  await memory.store("tz", "The user lives in Lisbon", { importance: 0.9 });
  await memory.store("tz", "The user lives in Porto", { metadata: { source: "chat" } });
  await memory.restore("tz", 1);
  await memory.store("tz", "The user lives in Lisbon, near the river", { actor: "alice" });
  await memory.store("pet", "The user has a cat named Miso", { category: "daily" });
  await memory.forget("pet");
  await memory.store("car", "The user drives a blue car");
  await memory.forget("car", { actor: "bob" });
  await memory.store("car", "The user drives a red car");
  await memory.store("car", "The user drives a red electric car", { context: "bought in May" });
  await memory.store("note-a", "Likes green tea");
  await memory.store("note-b", "Drinks tea every morning");
  await memory.import([{ key: "summary", content: "Drinks green tea every morning" }], {
    action: "merge",
    remove: [{ key: "note-a" }, { key: "note-b" }],
    actor: "curator",
  });
  await memory.store("old-fact", "The user works at Acme");
  await memory.import([{ key: "old-fact", content: "The user works at Acme", supersededBy: "job" }]);
  await memory.store("stale", "A stale reminder", { category: "conversation", sessionId: "s1" });
  await memory.forgetMany([{ key: "stale" }], { action: "prune", actor: "hygiene" });
  await memory.store("plan", "Pro plan", { namespace: "tenant" });
  await memory.store("plan", "Team plan", { namespace: "tenant" });
  await memory.store("promo", "50% off this week");
  // Its latest version expired: not among the backup's entries, nor current after a restore.
  await memory.import([
    { key: "promo", content: "60% off this week", expiresAt: "2020-01-01T00:00:00.000Z" },
  ]);
}

async function historyOf(memory: Memory): Promise<Record<string, MemoryVersion[]>> {
  const all: Record<string, MemoryVersion[]> = {};
  for (const [namespace, key] of KEYS) all[`${namespace}/${key}`] = await memory.history(key, { namespace });
  return all;
}

/** The rows of a store's live table, every column but the four replaceHistory() sets. */
async function liveRows(database: TestDatabase, memory: Memory) {
  const { rows } = await database.query(
    `SELECT to_jsonb(m) - 'version' - 'change_action' - 'change_actor' - 'updated_at' AS row
     FROM "${schemaOf(memory)}".claw_memories m ORDER BY rid`,
  );
  return rows.map((r) => r.row as Record<string, unknown>);
}

forEachTestDatabase((database) => {
  describe("history through a PostgreSQL backup", () => {
    const embeddings = createHashingEmbeddingProvider({ dimensions: 8 });
    const settings = { deferEmbedding: false };

    it("writes every version of every key, which replaceHistory() puts back as it was", async () => {
      const memory = await openTestMemory(database(), { embeddings, settings });
      await writeScenario(memory);
      const original = await historyOf(memory);
      // The scenario did what it says.
      expect(original["default/tz"]?.map((v) => [v.version, v.action, v.actor, v.current])).toEqual([
        [4, "update", "alice", true],
        [3, "restore", "library", false],
        [2, "update", "library", false],
        [1, "create", "library", false],
      ]);
      expect(original["default/car"]?.map((v) => [v.version, v.action, v.deleted])).toEqual([
        [4, "update", false],
        [3, "create", false],
        [2, "forget", true],
        [1, "create", false],
      ]);
      expect(original["default/note-a"]?.map((v) => [v.version, v.action, v.actor])).toEqual([
        [2, "merge", "curator"],
        [1, "create", "library"],
      ]);
      expect(original["default/summary"]?.map((v) => v.action)).toEqual(["merge"]);
      expect(original["default/old-fact"]?.map((v) => v.action)).toEqual(["supersede", "create"]);
      expect(original["default/stale"]?.map((v) => [v.action, v.actor])).toEqual([
        ["prune", "hygiene"],
        ["create", "library"],
      ]);
      expect(original["default/promo"]?.[0]).toMatchObject({ version: 2, current: true });

      const path = join(tempDir(), "store.ndjson");
      const report = await memory.backup(path);
      const { entries, versions } = backupLines(path);
      const total = Object.values(original).reduce((n, h) => n + h.length, 0);
      expect(report).toMatchObject({ entries: 5, versions: total });
      expect(entries.map((e) => `${e.namespace}/${e.key}`).sort()).toEqual([
        "default/car",
        "default/old-fact",
        "default/summary",
        "default/tz",
        "tenant/plan",
      ]);
      // Oldest first within a key, keys together; each version as history() gives it, but the
      // expired entry's state, which is no longer current (its entry is not in the file).
      expect(versions).toHaveLength(total);
      for (const [namespace, key] of KEYS) {
        const lines = versions.filter((v) => v.namespace === namespace && v.key === key);
        const expected = [...(original[`${namespace}/${key}`] ?? [])].reverse();
        if (key === "promo") expected[1] = { ...(expected[1] as MemoryVersion), current: false };
        expect(lines).toEqual(expected);
      }
      expect(versions.filter((v) => v.current).map((v) => `${v.namespace}/${v.key}`)).toEqual(
        expect.arrayContaining(entries.map((e) => `${e.namespace}/${e.key}`)),
      );
      expect(versions.filter((v) => v.current)).toHaveLength(entries.length);

      // Into an empty store: the entries imported, then their history put back.
      const copy = await openTestMemory(database(), { embeddings, settings });
      expect(await copy.import(entries)).toBe(5);
      const imported = await liveRows(database(), copy);
      expect(await copy.replaceHistory(versions)).toBe(total);
      const restored = await historyOf(copy);
      for (const [namespace, key] of KEYS) {
        const expected = original[`${namespace}/${key}`] ?? [];
        if (key === "promo") expected[0] = { ...(expected[0] as MemoryVersion), current: false };
        expect(restored[`${namespace}/${key}`], `${namespace}/${key}`).toEqual(expected);
      }
      // The live rows moved to take their number, action and actor are otherwise as imported:
      // the same rid, vector, full text, times and every other column.
      expect(await liveRows(database(), copy)).toEqual(imported);
      expect(await copy.export({ includeEmbeddings: true })).toEqual(
        await memory.export({ includeEmbeddings: true }),
      );
      expect(await copy.recall("electric car", { limit: 1 })).toMatchObject([{ key: "car" }]);

      // An old version restores, numbered after the restored history; so does a forgotten key's.
      expect((await copy.restore("tz", 2)).content).toBe("The user lives in Porto");
      expect((await copy.history("tz"))[0]).toMatchObject({ version: 5, action: "restore", current: true });
      expect((await copy.restore("pet", 1)).content).toBe("The user has a cat named Miso");
      expect((await copy.history("pet")).map((v) => [v.version, v.action])).toEqual([
        [3, "restore"],
        [2, "forget"],
        [1, "create"],
      ]);
      // The expired entry's versions restore too; a new write follows its numbers.
      expect((await copy.store("promo", "70% off")).content).toBe("70% off");
      expect((await copy.history("promo")).map((v) => [v.version, v.action, v.current])).toEqual([
        [3, "create", true],
        [2, "update", false],
        [1, "create", false],
      ]);
    });

    it("refuses bad versions naming the field, and changes nothing", async () => {
      const memory = await openTestMemory(database());
      await memory.store("k", "first");
      await memory.store("k", "second");
      const before = await memory.history("k");
      const good = before.map((v) => ({ ...v, actor: "elsewhere" }));
      const attempts: Array<[unknown, string]> = [
        [[...good, { ...good[0], version: 0 }], "history[2].version"],
        [[good[0], { ...good[1], at: "yesterday" }], "history[1].at"],
        [[good[0], { ...good[1], action: "edit" }], "history[1].action"],
        [[good[0], { ...good[1], current: "yes" }], "history[1].current"],
        [[good[0], { ...good[1], current: true }], "history[1].current"],
        [[good[0], { ...good[1], content: "" }], "history[1].content"],
        [[good[0], { ...good[1], content: "nul \u0000 inside" }], "history[1].content"],
        [[good[0], { ...good[0] }], "history[1].version"],
        [[{ ...good[0], deleted: true }], "history[0].deleted"],
        [[good[0], 42], "history[1]"],
        [{ version: 1 }, "history"],
      ];
      for (const [input, field] of attempts) {
        const error = await memory.replaceHistory(input as MemoryVersion[]).catch((e: unknown) => e);
        expect(error, field).toMatchObject({ code: "INVALID_INPUT", field });
      }
      expect(await memory.history("k")).toEqual(before);
      // The same versions, valid: put back.
      expect(await memory.replaceHistory(good)).toBe(2);
      expect((await memory.history("k")).map((v) => v.actor)).toEqual(["elsewhere", "elsewhere"]);
    });

    it("leaves a live key the versions give no current one alone, and never makes an absent entry current", async () => {
      const memory = await openTestMemory(database());
      await memory.store("mine", "the store's own entry");
      await memory.store("mine", "the store's own entry, updated");
      const own = await memory.history("mine");
      const at = "2024-05-01T10:00:00.000Z";
      const base = { at, actor: "cli", id: "id-1", namespace: "default", content: "x", category: "core" };
      const written = await memory.replaceHistory([
        // A backup's forgotten "mine": the live entry keeps its own history.
        { ...base, key: "mine", version: 1, action: "create", current: false, deleted: false },
        { ...base, key: "mine", version: 2, action: "forget", current: false, deleted: true },
        // A current version whose entry is not in the store: kept, not current.
        { ...base, key: "gone", version: 1, action: "create", current: false, deleted: false },
        { ...base, key: "gone", version: 2, action: "update", current: true, deleted: false },
      ]);
      expect(written).toBe(2);
      expect(await memory.history("mine")).toEqual(own);
      expect(await memory.get("gone")).toBeNull();
      expect((await memory.history("gone")).map((v) => [v.version, v.action, v.current])).toEqual([
        [2, "update", false],
        [1, "create", false],
      ]);
      expect((await memory.restore("gone", 2)).content).toBe("x");
    });
  });
});
