import { describe, expect, it } from "vitest";
import { openTestMemory } from "./test-support/temp-memory.js";

describe("recall filters", () => {
  it("keeps namespaces apart and reads them all with *", async () => {
    const memory = openTestMemory();
    await memory.store("k", "project alpha uses postgres", { namespace: "tenant-a" });
    await memory.store("k", "project beta uses postgres", { namespace: "tenant-b" });
    await memory.store("k", "default project uses postgres");
    expect((await memory.recall("postgres")).map((e) => e.content)).toEqual([
      "default project uses postgres",
    ]);
    expect((await memory.recall("postgres", { namespace: "tenant-a" })).map((e) => e.namespace)).toEqual([
      "tenant-a",
    ]);
    expect((await memory.recall("postgres", { namespace: "*" })).map((e) => e.namespace).sort()).toEqual([
      "default",
      "tenant-a",
      "tenant-b",
    ]);
  });

  it("filters by session and category", async () => {
    const memory = openTestMemory();
    await memory.store("a", "standup notes about the api", { sessionId: "s1", category: "daily" });
    await memory.store("b", "retro notes about the api", { sessionId: "s2", category: "conversation" });
    await memory.store("c", "api design principles", { category: "core" });
    expect((await memory.recall("api notes", { sessionId: "s1" })).map((e) => e.key)).toEqual(["a"]);
    expect((await memory.recall("api", { categories: ["core", "daily"] })).map((e) => e.key).sort()).toEqual([
      "a",
      "c",
    ]);
  });

  it("filters by since (inclusive) and until (exclusive) on the entry's timestamp", async () => {
    let now = new Date("2026-01-01T00:00:00Z");
    const memory = openTestMemory({ now: () => now });
    await memory.store("jan", "release planning");
    now = new Date("2026-02-01T00:00:00Z");
    await memory.store("feb", "release retro");
    now = new Date("2026-03-01T00:00:00Z");
    await memory.store("mar", "release party");
    const keys = async (o: object) =>
      (await memory.recall("release", { limit: 10, ...o })).map((e) => e.key).sort();
    expect(await keys({ since: "2026-02-01T00:00:00Z" })).toEqual(["feb", "mar"]);
    expect(await keys({ until: new Date("2026-02-01T00:00:00Z") })).toEqual(["jan"]);
    expect(await keys({ since: "2026-01-15", until: "2026-02-15T00:00:00+00:00" })).toEqual(["feb"]);
  });

  it("hides superseded entries unless asked for", async () => {
    const memory = openTestMemory();
    await memory.import([
      { key: "old", content: "[SUPERSEDED by 'new'] the user likes coffee", supersededBy: "new" },
      { key: "new", content: "the user no longer likes coffee" },
    ]);
    expect((await memory.recall("coffee")).map((e) => e.key)).toEqual(["new"]);
    const all = await memory.recall("coffee", { includeSuperseded: true });
    expect(all.map((e) => e.key).sort()).toEqual(["new", "old"]);
    expect(all.find((e) => e.key === "old")?.supersededBy).toBe("new");
  });

  it("applies minScore and limit", async () => {
    const memory = openTestMemory();
    for (let i = 0; i < 10; i++) await memory.store(`k${i}`, `budget meeting number ${i}`);
    expect(await memory.recall("budget", { limit: 3 })).toHaveLength(3);
    expect(await memory.recall("budget", { minScore: 1.000001 })).toEqual([]);
    // Half the terms at full strength: ½ × 0.5^1.5 + ½ ≈ 0.68.
    expect(await memory.recall("budget lunch", { minScore: 0.7 })).toEqual([]);
    expect(await memory.recall("budget lunch", { minScore: 0.1, limit: 10 })).toHaveLength(10);
  });
});
