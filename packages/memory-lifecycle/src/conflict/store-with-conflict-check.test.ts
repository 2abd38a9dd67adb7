import { createHashingEmbeddingProvider } from "@claw/memory-core";
import { describe, expect, it } from "vitest";
import { openWorkspaceMemory } from "../test-support/temp-workspace.js";
import { storeWithConflictCheck } from "./store-with-conflict-check.js";

describe("storeWithConflictCheck", () => {
  it("marks the contradicted entry superseded, with the prefix, and recall leaves it out", async () => {
    const memory = await openWorkspaceMemory();
    const old = await memory.store("coffee_1", "I like coffee", { category: "core" });

    const result = await storeWithConflictCheck(memory, "coffee_2", "I don't like coffee anymore");

    expect(result.superseded).toEqual(["coffee_1"]);
    expect(result.compared[0]?.score.total).toBeCloseTo(0.81, 5);
    const marked = await memory.get("coffee_1");
    expect(marked?.supersededBy).toBe("coffee_2");
    expect(marked?.content).toBe("[SUPERSEDED by 'coffee_2'] I like coffee");
    expect(marked?.createdAt).toBe(old.createdAt);
    expect(marked?.id).toBe(old.id);
    expect((await memory.recall("coffee")).map((e) => e.key)).toEqual(["coffee_2"]);
    expect((await memory.recall("coffee", { includeSuperseded: true })).map((e) => e.key).sort()).toEqual([
      "coffee_1",
      "coffee_2",
    ]);
  });

  it("leaves unrelated entries, other namespaces and other categories alone", async () => {
    const memory = await openWorkspaceMemory();
    await memory.store("hobby", "I like hiking in the mountains", { category: "core" });
    await memory.store("tenant_coffee", "I like coffee", { category: "core", namespace: "tenant" });
    await memory.store("daily_coffee", "I like coffee", { category: "daily" });

    const result = await storeWithConflictCheck(memory, "coffee", "I don't like coffee anymore");

    expect(result.superseded).toEqual([]);
    expect((await memory.get("hobby"))?.supersededBy).toBeUndefined();
    expect((await memory.get("tenant_coffee", { namespace: "tenant" }))?.supersededBy).toBeUndefined();
    expect((await memory.get("daily_coffee"))?.supersededBy).toBeUndefined();
  });

  it("never supersedes an entry with itself or with identical content", async () => {
    const memory = await openWorkspaceMemory();
    await memory.store("tabs", "The user prefers tabs for indentation");
    await memory.store("tabs_copy", "The user prefers spaces for indentation");

    const same = await storeWithConflictCheck(memory, "tabs", "The user prefers spaces for indentation");

    expect(same.superseded).toEqual([]);
    expect((await memory.get("tabs"))?.content).toBe("The user prefers spaces for indentation");
    expect((await memory.get("tabs_copy"))?.supersededBy).toBeUndefined();
  });

  it("uses the memory's conflict_threshold", async () => {
    const memory = await openWorkspaceMemory({ config: { conflictThreshold: 0.9 } });
    await memory.store("coffee_1", "I like coffee");
    const result = await storeWithConflictCheck(memory, "coffee_2", "I don't like coffee anymore");
    expect(result.superseded).toEqual([]);
  });

  it("compares vectors in combined mode when the memory has a provider", async () => {
    const memory = await openWorkspaceMemory({
      embeddings: createHashingEmbeddingProvider({ dimensions: 256 }),
      config: { deferEmbedding: false },
    });
    await memory.store("indent", "The user prefers tabs for indentation");
    const result = await storeWithConflictCheck(
      memory,
      "indent_2",
      "The user prefers spaces for indentation",
    );
    expect(result.compared[0]?.score.mode).toBe("combined");
    expect(result.compared[0]?.score.cosine).toBeGreaterThan(0);
    expect(result.superseded).toEqual(["indent"]);
  });

  it("rejects an empty key or content before changing anything", async () => {
    const memory = await openWorkspaceMemory();
    await memory.store("coffee_1", "I like coffee");
    await expect(storeWithConflictCheck(memory, "", "I don't like coffee")).rejects.toMatchObject({
      code: "INVALID_INPUT",
      field: "key",
    });
    await expect(storeWithConflictCheck(memory, "k", "  ")).rejects.toMatchObject({
      code: "INVALID_INPUT",
      field: "content",
    });
    expect(await memory.count()).toBe(1);
    expect((await memory.get("coffee_1"))?.supersededBy).toBeUndefined();
  });
});
