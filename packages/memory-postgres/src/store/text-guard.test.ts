import { isMemoryError } from "@claw/memory-api";
import { describe, expect, it } from "vitest";
import { forEachTestDatabase } from "../test-support/test-database.js";
import { openTestMemory } from "../test-support/test-memory.js";

/** The rejection's field, or "resolved". */
async function fieldOf(call: Promise<unknown>): Promise<string | undefined> {
  return call.then(
    () => "resolved",
    (error: unknown) =>
      isMemoryError(error, "INVALID_INPUT") ? error.field : `not INVALID_INPUT: ${String(error)}`,
  );
}

forEachTestDatabase((database) => {
  describe("text PostgreSQL cannot hold (U+0000)", () => {
    it("is refused as INVALID_INPUT naming the field, and nothing is written", async () => {
      const memory = await openTestMemory(database());
      await memory.store("kept", "an entry");
      expect(await fieldOf(memory.store("k", "before\u0000after"))).toBe("content");
      expect(await fieldOf(memory.store("k\u0000", "content"))).toBe("key");
      expect(await fieldOf(memory.store("k", "content", { sessionId: "s\u0000" }))).toBe("sessionId");
      expect(await fieldOf(memory.store("k", "content", { category: "c\u0000" }))).toBe("category");
      expect(
        await fieldOf(
          memory.import([
            { key: "fine", content: "valid" },
            { key: "bad", content: "valid", source: { path: "a\u0000b", startLine: 1, endLine: 2 } },
          ]),
        ),
      ).toBe("entries[1].source.path");
      expect(await fieldOf(memory.recall("x", { sessionId: "s\u0000" }))).toBe("sessionId");
      expect((await memory.export()).map((e) => e.key)).toEqual(["kept"]);
    });

    it("cannot name a stored entry: get finds nothing, forget removes nothing", async () => {
      const memory = await openTestMemory(database());
      await memory.store("k", "content");
      expect(await memory.get("k\u0000")).toBeNull();
      expect(await memory.forget("k\u0000")).toBe(false);
      expect(await memory.forgetMany([{ key: "k", namespace: "n\u0000" }])).toBe(0);
      expect(await memory.count()).toBe(1);
    });

    it("queries may contain it: it separates words", async () => {
      const memory = await openTestMemory(database());
      await memory.store("k", "ship it today");
      expect((await memory.recall("ship\u0000today", { mode: "bm25" })).map((e) => e.key)).toEqual(["k"]);
    });
  });
});
