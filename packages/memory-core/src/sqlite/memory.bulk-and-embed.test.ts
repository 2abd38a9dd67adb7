import { isMemoryError } from "@claw/memory-api";
import { describe, expect, it } from "vitest";
import { createHashingEmbeddingProvider } from "../embedding/hashing-embedding-provider.js";
import { countingProvider, openTestMemory } from "./test-support/temp-memory.js";

describe("import option validation (the rest of import is in the contract suite)", () => {
  it("rejects an unknown onConflict value and writes nothing", async () => {
    const memory = openTestMemory();
    const error = await memory
      .import([{ key: "a", content: "b" }], { onConflict: "merge" as "skip" })
      .catch((e: unknown) => e);
    expect(isMemoryError(error, "INVALID_INPUT") && error.field).toBe("onConflict");
    expect(await memory.count()).toBe(0);
  });
});

describe("forgetMany edge cases", () => {
  it("returns 0 for an empty list", async () => {
    const memory = openTestMemory();
    await memory.store("a", "alpha");
    expect(await memory.forgetMany([])).toBe(0);
    expect(await memory.count()).toBe(1);
  });
});

describe("embed", () => {
  it("is null in keyword-only mode", async () => {
    const memory = openTestMemory();
    expect(await memory.embed(["anything"])).toBeNull();
  });

  it("shares the embedding cache with stored entries, so a document vector is fetched once", async () => {
    const counting = countingProvider(createHashingEmbeddingProvider({ dimensions: 64 }));
    const memory = openTestMemory({
      embeddings: counting.provider,
      settings: { deferEmbedding: false },
    });
    const [vector] = (await memory.embed(["the user prefers tabs"])) as Float32Array[];
    expect(vector?.length).toBe(64);
    expect(counting.calls.document).toBe(1);

    await memory.store("indent", "the user prefers tabs");
    const [stored] = await memory.recall("prefers tabs", { withEmbeddings: true, mode: "embedding" });
    expect(counting.calls.document).toBe(1);
    expect(Array.from(stored?.embedding ?? [])).toEqual(Array.from(vector as Float32Array));
  });

  it("does not cache query vectors", async () => {
    const counting = countingProvider(createHashingEmbeddingProvider({ dimensions: 32 }));
    const memory = openTestMemory({ embeddings: counting.provider });
    await memory.embed(["a question"], { purpose: "query" });
    await memory.embed(["a question"], { purpose: "query" });
    expect(counting.calls.query).toBe(2);
  });
});
