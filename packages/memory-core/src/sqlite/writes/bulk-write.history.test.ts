import { describe, expect, it } from "vitest";
import { openTestMemory } from "../test-support/temp-memory.js";

/** 1,200 new entries: a bulk write (write-transactions.ts), then `extra`. */
const bulk = (extra: Array<{ key: string; content: string }> = []) => [
  ...Array.from({ length: 1200 }, (_, i) => ({ key: `bulk-${i}`, content: `entry ${i}` })),
  ...extra,
];

const versions = async (memory: ReturnType<typeof openTestMemory>, key: string) =>
  (await memory.history(key)).map((v) => [v.version, v.action]);

describe("versions written by a bulk import", () => {
  it("start at 1 for new keys, and an overwrite in the same import follows", async () => {
    const memory = openTestMemory();
    const written = await memory.import(
      bulk([
        { key: "twice", content: "first" },
        { key: "twice", content: "second" },
      ]),
    );
    expect(written).toBe(1202);
    expect(await versions(memory, "bulk-7")).toEqual([[1, "create"]]);
    expect(await versions(memory, "twice")).toEqual([
      [2, "update"],
      [1, "create"],
    ]);
  });

  it("continue after the tombstone of a key forgotten before", async () => {
    const memory = openTestMemory();
    await memory.store("gone", "old text");
    await memory.store("gone", "newer text");
    await memory.forget("gone");
    await memory.import(bulk([{ key: "gone", content: "back again" }]));
    expect(await versions(memory, "gone")).toEqual([
      [4, "create"],
      [3, "forget"],
      [2, "update"],
      [1, "create"],
    ]);
    expect(await versions(memory, "bulk-7")).toEqual([[1, "create"]]);
  });

  it("continue after the tombstone the same import leaves (it removes a key, then writes it again)", async () => {
    const memory = openTestMemory();
    await memory.store("again", "before");
    await memory.import(bulk([{ key: "again", content: "after" }]), { remove: [{ key: "again" }] });
    expect(await versions(memory, "again")).toEqual([
      [3, "create"],
      [2, "forget"],
      [1, "create"],
    ]);
  });
});
