// Property-based: any string as a key, namespace or session either round-trips exactly or is
// refused as INVALID_INPUT naming the field, and a refused call changes nothing.
import { isMemoryError } from "@claw/memory-api";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { openTestMemory } from "../sqlite/test-support/temp-memory.js";

const anyName = fc.oneof(
  fc.string({ unit: "grapheme", maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ unit: "binary-ascii", minLength: 0, maxLength: 8 }),
  fc.constantFrom("*", " ", "\t", "a".repeat(300), "%2F", "../..", "'; DROP TABLE memories; --"),
);

describe("names (property)", () => {
  it("store → get → forget round-trips, or the call is refused naming its field", async () => {
    const memory = openTestMemory();
    await fc.assert(
      fc.asyncProperty(anyName, anyName, anyName, async (key, namespace, sessionId) => {
        const before = await memory.count({ namespace: "*" });
        try {
          const stored = await memory.store(key, "content", { namespace, sessionId });
          const got = await memory.get(key, { namespace });
          expect(got?.key).toBe(key);
          expect(got?.namespace).toBe(namespace);
          expect(got?.sessionId).toBe(sessionId);
          expect(got?.id).toBe(stored.id);
          expect(await memory.forget(key, { namespace })).toBe(true);
        } catch (error) {
          if (!isMemoryError(error, "INVALID_INPUT")) throw error;
          expect(["key", "namespace", "sessionId"]).toContain(error.field);
        }
        expect(await memory.count({ namespace: "*" })).toBe(before);
      }),
      { numRuns: 300 },
    );
  });

  it("recall takes any query and answers with a list", async () => {
    const memory = openTestMemory();
    await memory.store("standup", "The weekly standup moved to Tuesday");
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: "binary", maxLength: 80 }), async (query) => {
        expect(Array.isArray(await memory.recall(query, { mode: "bm25" }))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
