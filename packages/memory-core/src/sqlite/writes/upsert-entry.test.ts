import type { StoreOptions } from "@claw/memory-api";
import { describe, expect, it } from "vitest";
import { openTestMemory } from "../test-support/temp-memory.js";

/** A clock the test moves by hand, so an upsert gets a later updatedAt than the first write. */
function steppingClock() {
  let time = Date.parse("2025-01-01T00:00:00.000Z");
  return () => {
    time += 1000;
    return new Date(time);
  };
}

describe("store() returns the entry exactly as get() reads it back", () => {
  it.each<[string, string, string, StoreOptions]>([
    ["defaults", "plain", "The user edits code in Vim", {}],
    [
      "every option",
      "opts",
      "Decision: we always deploy on Fridays",
      { category: "project-notes", namespace: "team", sessionId: "s-1", importance: 0.25 },
    ],
    ["scored importance", "rule", "This is a hard rule that we must follow", { category: "daily" }],
    ["CJK content", "fruit", "我最喜欢的水果是苹果", {}],
    ["a NUL in the text", "nul", "before\u0000after", {}],
    ["importance -0 (SQLite keeps no negative zero)", "zero", "nothing special", { importance: -0 }],
  ])("a new entry: %s", async (_name, key, content, options) => {
    const memory = openTestMemory();
    const stored = await memory.store(key, content, options);
    expect(stored).toStrictEqual(await memory.get(key, { namespace: options.namespace }));
  });

  it.each([
    ["new content", "The user edits code in Helix"],
    ["the same content", "The user edits code in Vim"],
  ])("an upsert with %s keeps the id and createdAt", async (_name, content) => {
    const memory = openTestMemory({ now: steppingClock() });
    const first = await memory.store("editor", "The user edits code in Vim", { sessionId: "s-1" });
    const second = await memory.store("editor", content, { category: "daily", importance: 0.5 });

    expect(second).toStrictEqual(await memory.get("editor"));
    expect(second.id).toBe(first.id);
    expect(second.createdAt).toBe(first.createdAt);
    expect(second.updatedAt > first.updatedAt).toBe(true);
    expect(second.sessionId).toBeUndefined();
  });
});

describe("ids on import", () => {
  it("an imported id another entry already holds is replaced by a fresh one", async () => {
    const memory = openTestMemory();
    const existing = await memory.store("a", "first entry");
    await memory.import([{ key: "b", content: "second entry", id: existing.id }]);

    const imported = await memory.get("b");
    expect(imported?.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(imported?.id).not.toBe(existing.id);
    expect((await memory.get("a"))?.id).toBe(existing.id);
  });

  it("a free imported id is kept", async () => {
    const memory = openTestMemory();
    await memory.import([{ key: "b", content: "second entry", id: "my-own-id" }]);
    expect((await memory.get("b"))?.id).toBe("my-own-id");
  });
});
