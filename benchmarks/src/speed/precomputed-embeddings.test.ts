import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isMemoryError } from "@claw/memory-api";
import { SqliteMemory } from "@claw/memory-core";
import { afterEach, describe, expect, it } from "vitest";
import { createPrecomputedEmbeddings } from "./precomputed-embeddings.js";

const unit = (dimensions: number, at: number) => {
  const v = new Float32Array(dimensions);
  v[at] = 1;
  return v;
};

describe("precomputed embeddings", () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it("answers each text with its registered vector, in order", async () => {
    const provider = createPrecomputedEmbeddings({
      dimensions: 4,
      entries: [
        ["alpha", unit(4, 0)],
        ["beta", unit(4, 1)],
      ],
    });
    const [b, a] = await provider.embed(["beta", "alpha"], { purpose: "query" });
    expect(Array.from(b ?? [])).toEqual([0, 1, 0, 0]);
    expect(Array.from(a ?? [])).toEqual([1, 0, 0, 0]);
    expect(provider.size).toBe(2);
    expect(provider.calls).toEqual({ query: 2, document: 0 });
  });

  it("refuses unknown texts and vectors of the wrong width", async () => {
    const provider = createPrecomputedEmbeddings({ dimensions: 4 });
    const error = await provider.embed(["nope"], { purpose: "query" }).catch((e: unknown) => e);
    expect(isMemoryError(error) && error.code).toBe("PROVIDER");
    expect(() => provider.set("x", new Float32Array(3))).toThrow(/4 dimensions/);
  });

  it("answers queries at once and documents on a later turn of the event loop", async () => {
    const provider = createPrecomputedEmbeddings({ dimensions: 4, entries: [["t", unit(4, 2)]] });
    const order: string[] = [];
    setImmediate(() => order.push("earlier immediate"));
    await Promise.all([
      provider.embed(["t"], { purpose: "document" }).then(() => order.push("document")),
      provider.embed(["t"], { purpose: "query" }).then(() => order.push("query")),
    ]);
    expect(order).toEqual(["query", "earlier immediate", "document"]);
  });

  it("serves a SqliteMemory: deferred store(), then vector recall finds the entry", async () => {
    const dir = mkdtempSync(join(tmpdir(), "precomputed-"));
    dirs.push(dir);
    const provider = createPrecomputedEmbeddings({
      dimensions: 4,
      entries: [
        ["coffee with oat milk", unit(4, 0)],
        ["tea without sugar", unit(4, 1)],
        ["what does she drink", unit(4, 1)],
      ],
    });
    const memory = SqliteMemory.open({ path: join(dir, "m.db"), embeddings: provider });
    try {
      await memory.store("drink-1", "coffee with oat milk");
      await memory.store("drink-2", "tea without sugar");
      await memory.flush();
      const [top] = await memory.recall("what does she drink", { mode: "embedding", limit: 1 });
      expect(top?.key).toBe("drink-2");
      expect(provider.calls).toEqual({ query: 1, document: 2 });
    } finally {
      await memory.close();
    }
  });
});
