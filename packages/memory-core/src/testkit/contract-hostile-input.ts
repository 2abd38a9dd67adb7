import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Memory } from "@claw/memory-api";
import { describe, expect, it } from "vitest";
import { expectInvalid, keysOf, type MemoryContractHarness, openContractMemory } from "./contract-harness.js";

/** A high surrogate with nothing after it: what cutting a string inside an emoji leaves. */
const LONE = "\uD83D";

/** Input no valid call would send: refused as INVALID_INPUT naming the field, changing nothing. */
export function describeHostileInputContract(harness: MemoryContractHarness): void {
  const open = async () => {
    const memory = await openContractMemory(harness, {});
    await memory.store("existing", "An entry that must survive every bad call", { sessionId: "s1" });
    return memory;
  };

  describe("ill-formed Unicode is refused where it would be stored", () => {
    it.each([
      ["key", (m: Memory) => m.store(`k${LONE}`, "content")],
      ["content", (m: Memory) => m.store("k", `text ${LONE}`)],
      ["namespace", (m: Memory) => m.store("k", "content", { namespace: `ns${LONE}` })],
      ["sessionId", (m: Memory) => m.store("k", "content", { sessionId: `s${LONE}` })],
      ["category", (m: Memory) => m.store("k", "content", { category: `c${LONE}` })],
      ["context", (m: Memory) => m.store("k", "content", { context: `ctx \uDC00` })],
      [
        "entries[1].content",
        (m: Memory) =>
          m.import([
            { key: "a", content: "fine" },
            { key: "b", content: LONE },
          ]),
      ],
      ["key", (m: Memory) => m.get(`existing${LONE}`)],
      ["key", (m: Memory) => m.forget(`existing${LONE}`)],
      ["refs[0].key", (m: Memory) => m.forgetMany([{ key: `existing${LONE}` }])],
    ] as const)("%s", async (field, call) => {
      const memory = await open();
      await expectInvalid(memory, field, () => call(memory));
      expect((await memory.get("existing"))?.content).toBe("An entry that must survive every bad call");
    });

    it("a query cut inside an emoji still recalls (it only reads)", async () => {
      const memory = await open();
      expect(keysOf(await memory.recall(`survive every bad ${LONE}`, { mode: "bm25" }))).toEqual([
        "existing",
      ]);
    });
  });

  describe("options that are not an object are INVALID_INPUT, not a TypeError", () => {
    const bad = [null, 5, "fast", [1]] as const;
    const calls: Array<[string, string, (m: Memory, value: never) => Promise<unknown>]> = [
      ["store", "options", (m, v) => m.store("k", "content", v)],
      ["get", "options", (m, v) => m.get("existing", v)],
      ["recall", "options", (m, v) => m.recall("entry", v)],
      ["list", "options", (m, v) => m.list(v)],
      ["forget", "options", (m, v) => m.forget("existing", v)],
      ["count", "options", (m, v) => m.count(v)],
      ["export", "filter", (m, v) => m.export(v)],
      ["import", "options", (m, v) => m.import([{ key: "k", content: "c" }], v)],
      ["topCoreMemories", "options", (m, v) => m.topCoreMemories(5, v)],
      ["reindex", "options", (m, v) => m.reindex(v)],
      ["backfillEmbeddings", "options", (m, v) => m.backfillEmbeddings(8, v)],
      // Refused before anything is written.
      ["backup", "options", (m, v) => m.backup(join(tmpdir(), "claw-memory-never-written.db"), v)],
    ];
    it.each(calls)("%s", async (_name, field, call) => {
      const memory = await open();
      for (const value of bad) await expectInvalid(memory, field, () => call(memory, value as never));
      expect(await memory.count({ namespace: "*" })).toBe(1);
    });

    it("exportStream refuses at the call", async () => {
      const memory = await open();
      for (const value of bad) {
        expect(() => memory.exportStream(value as never)).toThrow(
          expect.objectContaining({ field: "filter" }),
        );
      }
    });
  });
}
