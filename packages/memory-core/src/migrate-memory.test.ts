import type { Memory, MemoryEntry } from "@claw/memory-api";
import { isMemoryError } from "@claw/memory-api";
import { describe, expect, it } from "vitest";
import { createHashingEmbeddingProvider } from "./embedding/hashing-embedding-provider.js";
import { migrateMemory } from "./migrate-memory.js";
import { openTestMemory } from "./sqlite/test-support/temp-memory.js";

function entries(n: number): Array<Partial<MemoryEntry>> {
  return Array.from({ length: n }, (_, i) => ({
    id: `id-${i}`,
    key: `k${i}`,
    content: `entry number ${i} about gardens`,
    namespace: i % 3 === 0 ? "tenant" : "default",
    sessionId: i % 5 === 0 ? "s1" : undefined,
    category: i % 2 === 0 ? "core" : "daily",
    createdAt: `2024-01-01T00:00:${String(i % 60).padStart(2, "0")}.000Z`,
    updatedAt: `2024-02-01T00:00:${String(i % 60).padStart(2, "0")}.000Z`,
  }));
}

const sorted = (list: MemoryEntry[]) =>
  [...list].sort((a, b) => `${a.namespace}/${a.key}`.localeCompare(`${b.namespace}/${b.key}`));

describe("migrateMemory", () => {
  it("copies every entry with ids, timestamps and vectors, reporting progress per batch", async () => {
    const provider = () => createHashingEmbeddingProvider({ dimensions: 16 });
    const from = openTestMemory({ embeddings: provider() });
    await from.import(entries(25));
    await from.flush();
    const to = openTestMemory({ embeddings: provider() });
    const progress: Array<[number, number]> = [];

    const report = await migrateMemory(from, to, {
      batchSize: 10,
      onProgress: (done, total) => progress.push([done, total]),
    });

    expect(report).toEqual({ total: 25, copied: 25, skipped: 0 });
    expect(progress).toEqual([
      [0, 25],
      [10, 25],
      [20, 25],
      [25, 25],
    ]);
    expect(sorted(await to.export({ includeEmbeddings: true }))).toEqual(
      sorted(await from.export({ includeEmbeddings: true })),
    );
  });

  it("resumes an interrupted run: entries already copied unchanged are skipped", async () => {
    const from = openTestMemory();
    await from.import(entries(30));
    const to = openTestMemory();
    let imports = 0;
    const failing: Memory = new Proxy(to, {
      get(target, name, receiver) {
        if (name !== "import") return Reflect.get(target, name, receiver);
        return async (...args: Parameters<Memory["import"]>) => {
          if (++imports === 3) throw new Error("connection lost");
          return target.import(...args);
        };
      },
    });
    await expect(migrateMemory(from, failing, { batchSize: 10 })).rejects.toThrow("connection lost");
    expect(await to.count({ namespace: "*" })).toBe(20);

    await from.store("k1", "edited after the first run", { namespace: "default" });
    const report = await migrateMemory(from, to, { batchSize: 10 });
    expect(report).toEqual({ total: 30, copied: 11, skipped: 19 });
    expect((await to.get("k1"))?.content).toBe("edited after the first run");
    expect(sorted(await to.export())).toEqual(sorted(await from.export()));
  });

  it("fails with STORAGE when the target does not end up holding every entry", async () => {
    const from = openTestMemory();
    await from.import(entries(3));
    const to = openTestMemory();
    const dropping: Memory = new Proxy(to, {
      get(target, name, receiver) {
        if (name !== "import") return Reflect.get(target, name, receiver);
        return async (batch: Array<Partial<MemoryEntry>>) => target.import(batch.slice(1));
      },
    });
    const error = await migrateMemory(from, dropping).catch((e: unknown) => e);
    expect(isMemoryError(error, "STORAGE") && error.message).toBe(
      "migration incomplete: 1 of 3 entries are missing from the target",
    );
  });
});
