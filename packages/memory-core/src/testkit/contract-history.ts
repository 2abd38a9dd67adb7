import type { MemoryVersion } from "@claw/memory-api";
import { isMemoryError } from "@claw/memory-api";
import { describe, expect, it } from "vitest";
import {
  expectInvalid,
  type MemoryContractHarness,
  manualClock,
  openContractMemory,
} from "./contract-harness.js";

/** The parts of each version a test compares: number, change, who, live or tombstone, content. */
function summary(versions: readonly MemoryVersion[]) {
  return versions.map((v) => [v.version, v.action, v.actor, v.current, v.deleted, v.content]);
}

async function errorOf(call: Promise<unknown>): Promise<{ code?: string; field?: string } | string> {
  return call.then(
    () => "no error",
    (error: unknown) => (isMemoryError(error) ? { code: error.code, field: error.field } : String(error)),
  );
}

/** history(), restore() and the versions every change leaves (both backends alike). */
export function describeHistoryContract(harness: MemoryContractHarness): void {
  const open = (options = {}) => openContractMemory(harness, options);

  describe("history", () => {
    it("records create, update, forget and restore newest first, with who made each change", async () => {
      const clock = manualClock("2026-03-01T10:00:00.000Z");
      const memory = await open({ now: clock.now });
      await memory.store("address", "The user lives at 1 Main Street", { metadata: { source: "chat" } });
      clock.advance(60_000);
      // The same content, category and metadata again: no new version.
      await memory.store("address", "The user lives at 1 Main Street", { metadata: { source: "chat" } });
      clock.advance(60_000);
      await memory.store("address", "The user moved to 9 Elm Road", { actor: "cli" });
      clock.advance(60_000);
      expect(await memory.forget("address", { actor: "token:agent" })).toBe(true);
      expect(await memory.get("address")).toBeNull();

      const history = await memory.history("address");
      expect(summary(history)).toEqual([
        [3, "forget", "token:agent", false, true, "The user moved to 9 Elm Road"],
        [2, "update", "cli", false, false, "The user moved to 9 Elm Road"],
        [1, "create", "library", false, false, "The user lives at 1 Main Street"],
      ]);
      expect(history[0]?.at).toBe("2026-03-01T10:03:00.000Z");
      expect(history[1]?.at).toBe("2026-03-01T10:02:00.000Z");
      // Version 1's time is the last time it was stored (the unchanged store at 10:01).
      expect(history[2]?.at).toBe("2026-03-01T10:01:00.000Z");
      expect(history[2]?.metadata).toEqual({ source: "chat" });
      expect(history[1]?.metadata).toBeUndefined();

      clock.advance(60_000);
      const restored = await memory.restore("address", 1, { actor: "cli" });
      expect(restored.content).toBe("The user lives at 1 Main Street");
      expect(restored.metadata).toEqual({ source: "chat" });
      expect(restored.id).toBe(history[2]?.id);
      expect((await memory.get("address"))?.content).toBe("The user lives at 1 Main Street");
      expect((await memory.recall("Main Street"))[0]?.key).toBe("address");
      const after = await memory.history("address");
      expect(summary(after)[0]).toEqual([
        4,
        "restore",
        "cli",
        true,
        false,
        "The user lives at 1 Main Street",
      ]);
      expect(after.map((v) => v.version)).toEqual([4, 3, 2, 1]);
      expect(await memory.history("address", { limit: 2 })).toEqual(after.slice(0, 2));
    });

    it("restoring a live entry keeps it live as a new version; a new store continues after a forget", async () => {
      const memory = await open();
      await memory.store("pref", "likes tea", { category: "core" });
      await memory.store("pref", "likes coffee", { category: "core", importance: 0.9 });
      const restored = await memory.restore("pref", 1);
      expect(restored.content).toBe("likes tea");
      expect(summary(await memory.history("pref")).map((v) => v.slice(0, 2))).toEqual([
        [3, "restore"],
        [2, "update"],
        [1, "create"],
      ]);
      await memory.forget("pref");
      await memory.store("pref", "likes water");
      const versions = await memory.history("pref");
      expect(versions.map((v) => [v.version, v.action, v.current])).toEqual([
        [5, "create", true],
        [4, "forget", false],
        [3, "restore", false],
        [2, "update", false],
        [1, "create", false],
      ]);
      expect(versions[3]?.importance).toBe(0.9);
    });

    it("a supersede, a curator's merge and hygiene's prune are recorded as such", async () => {
      const memory = await open();
      await memory.store("old-fact", "the office is in Berlin");
      await memory.store("new-fact", "the office moved to Munich");
      const [old] = await memory
        .export({ namespace: "default" })
        .then((e) => e.filter((x) => x.key === "old-fact"));
      await memory.import([{ ...old, supersededBy: "new-fact" }], { actor: "library" });
      expect(summary(await memory.history("old-fact")).map((v) => v.slice(0, 4))).toEqual([
        [2, "supersede", "library", true],
        [1, "create", "library", false],
      ]);
      expect((await memory.history("old-fact"))[0]?.supersededBy).toBe("new-fact");

      await memory.import([{ key: "merged", content: "the office is in Munich since 2026" }], {
        actor: "curator",
        action: "merge",
      });
      await memory.forgetMany([{ key: "old-fact" }, { key: "new-fact" }], {
        actor: "curator",
        action: "merge",
      });
      expect(summary(await memory.history("merged"))).toEqual([
        [1, "merge", "curator", true, false, "the office is in Munich since 2026"],
      ]);
      expect(summary(await memory.history("new-fact")).map((v) => v.slice(0, 5))).toEqual([
        [2, "merge", "curator", false, true],
        [1, "create", "library", false, false],
      ]);

      await memory.store("chat", "we talked about lunch", { category: "conversation" });
      await memory.forgetMany([{ key: "chat" }], { actor: "hygiene", action: "prune" });
      expect(summary(await memory.history("chat"))[0]?.slice(0, 5)).toEqual([
        2,
        "prune",
        "hygiene",
        false,
        true,
      ]);
    });

    it("a tombstone cannot be restored; a version not kept is NOT_FOUND; bad input changes nothing", async () => {
      const memory = await open();
      await memory.store("k", "first");
      await memory.forget("k");
      expect(await errorOf(memory.restore("k", 2))).toEqual({ code: "INVALID_INPUT", field: "version" });
      expect(await errorOf(memory.restore("k", 9))).toEqual({ code: "NOT_FOUND", field: undefined });
      expect(await errorOf(memory.restore("never", 1))).toEqual({ code: "NOT_FOUND", field: undefined });
      expect(await memory.history("never")).toEqual([]);
      await expectInvalid(memory, "version", () => memory.restore("k", 0));
      await expectInvalid(memory, "version", () => memory.restore("k", 1.5));
      await expectInvalid(memory, "key", () => memory.history(""));
      await expectInvalid(memory, "limit", () => memory.history("k", { limit: -1 }));
      await expectInvalid(memory, "actor", () => memory.store("x", "y", { actor: "" }));
      await expectInvalid(memory, "actor", () => memory.forget("k", { actor: 7 as unknown as string }));
      await expectInvalid(memory, "action", () =>
        memory.forgetMany([{ key: "k" }], { action: "vanish" as unknown as "forget" }),
      );
      await expectInvalid(memory, "action", () =>
        memory.import([{ key: "x", content: "y" }], { action: "update" as unknown as "merge" }),
      );
      // Nothing above wrote a version.
      expect((await memory.history("k")).map((v) => v.version)).toEqual([2, 1]);
      expect(await memory.history("x")).toEqual([]);
    });

    it("purging a namespace or a session removes its history with its entries", async () => {
      const memory = await open();
      await memory.store("a", "alpha one", { namespace: "team" });
      await memory.store("a", "alpha two", { namespace: "team" });
      await memory.store("b", "kept elsewhere");
      await memory.store("b", "kept elsewhere, changed");
      await memory.store("t1", "turn one", { sessionId: "s1" });
      await memory.store("t1", "turn one, edited", { sessionId: "s1" });
      await memory.store("t2", "turn two", { sessionId: "s1" });
      await memory.forget("t2");
      expect(await memory.purgeNamespace("team")).toBe(1);
      expect(await memory.history("a", { namespace: "team" })).toEqual([]);
      expect(await memory.purgeSession("s1")).toBe(1);
      expect(await memory.history("t1")).toEqual([]);
      expect(await memory.history("t2")).toEqual([]);
      expect((await memory.history("b")).map((v) => v.version)).toEqual([2, 1]);
    });

    it("forget and forgetMany with eraseHistory leave no trace of the entries", async () => {
      const memory = await open();
      await memory.store("secret", "the old password is hunter2");
      await memory.store("secret", "the new password is hunter3");
      await memory.store("kept", "a note that stays");
      await memory.store("other", "another secret");
      expect(await memory.forget("secret", { eraseHistory: true })).toBe(true);
      expect(await memory.history("secret")).toEqual([]);
      expect(await memory.forgetMany([{ key: "other" }], { eraseHistory: true })).toBe(1);
      expect(await memory.history("other")).toEqual([]);
      expect((await memory.history("kept")).map((v) => v.version)).toEqual([1]);
      // Stored again, the key starts a new history.
      await memory.store("secret", "a fresh start");
      expect((await memory.history("secret")).map((v) => [v.version, v.action])).toEqual([[1, "create"]]);
      await expectInvalid(memory, "eraseHistory", () =>
        memory.forget("kept", { eraseHistory: "yes" as unknown as boolean }),
      );
    });

    it("keeps at most history_max_versions per entry and none older than history_max_days", async () => {
      const clock = manualClock("2026-01-01T00:00:00.000Z");
      const memory = await open({ now: clock.now, settings: { historyMaxVersions: 3, historyMaxDays: 30 } });
      for (let i = 1; i <= 6; i++) {
        await memory.store("note", `version ${i}`);
        clock.advance(86_400_000);
      }
      expect((await memory.history("note")).map((v) => v.version)).toEqual([6, 5, 4]);
      await expect(memory.restore("note", 2)).rejects.toMatchObject({ code: "NOT_FOUND" });
      clock.advance(40 * 86_400_000);
      // Older than 30 days: only the live state stays.
      expect((await memory.history("note")).map((v) => [v.version, v.current])).toEqual([[6, true]]);
      // The store dropped them too (a reopened store with no limits shows what is left).
      await memory.store("other", "a write runs the retention");
      const unlimited = await harness.reopen(memory, { now: clock.now });
      expect((await unlimited.history("note")).map((v) => v.version)).toEqual([6]);
      await unlimited.close();
    });
  });
}
