import { createHashingEmbeddingProvider } from "@claw/memory-core";
import { describe, expect, it } from "vitest";
import { DAYS, writeFixtureWorkspace } from "../test-support/fixture-workspace.js";
import { openIndex, openMemory, tempDir, writeFiles } from "../test-support/temp-workspace.js";

async function setUp() {
  const dir = tempDir();
  writeFixtureWorkspace(dir);
  const memory = await openMemory(dir);
  const index = openIndex(memory, dir);
  await index.sync();
  return { dir, memory, index };
}

describe("search (memory_search)", () => {
  it("returns file chunks with path, line range, snippet and score, keyword-only without a provider", async () => {
    const { index } = await setUp();
    // Not a weekday: every chunk is also indexed with its date, "Friday" included on some days.
    const hits = await index.search("deploys review");

    expect(hits).toHaveLength(1);
    expect(hits[0]).toMatchObject({
      key: "file:MEMORY.md#1",
      origin: "file",
      path: "MEMORY.md",
      startLine: 3,
      endLine: 5,
      snippet:
        "## Preferences\n- The user prefers concise answers.\n- Deploys happen on Fridays only after review.",
      category: "core",
      entities: [],
      provider: null,
      model: null,
    });
    expect(hits[0]?.score).toBeGreaterThan(0);
  });

  it("returns retained facts with their kind, entities, confidence and source line", async () => {
    const { index } = await setUp();
    const hits = await index.search("PostgreSQL", { kind: "opinion" });

    expect(hits).toEqual([
      expect.objectContaining({
        key: `fact:memory/${DAYS.chinese}.md#L7`,
        origin: "fact",
        kind: "opinion",
        entities: ["张三"],
        confidence: 0.7,
        snippet: "@张三 喜欢 PostgreSQL",
        path: `memory/${DAYS.chinese}.md`,
        startLine: 7,
        endLine: 7,
        timestamp: `${DAYS.chinese}T00:00:00.000Z`,
      }),
    ]);
  });

  it("searches file chunks and stored entries together", async () => {
    const { memory, index } = await setUp();
    await memory.store("editor", "The user edits Markdown notes in Helix");
    const hits = await index.search("Helix editor notes", { limit: 10 });

    expect(hits.map((h) => [h.key, h.origin])).toContainEqual(["editor", "memory"]);
    const stored = hits.find((h) => h.key === "editor");
    expect(stored?.path).toBeUndefined();
  });

  it("filters by entity, in any script and with or without @, across facts and chunks", async () => {
    const { index } = await setUp();
    const alice = await index.search("", { entity: "alice", limit: 10 });
    expect(alice.map((h) => h.key).sort()).toEqual([
      `fact:memory/${DAYS.recent}.md#L6`,
      `fact:memory/${DAYS.recent}.md#L7`,
      `file:memory/${DAYS.recent}.md#0`,
      `file:memory/${DAYS.recent}.md#1`,
    ]);
    const zhang = await index.search("杭州", { entity: "@张三" });
    expect(zhang.map((h) => h.key)).toContain(`fact:memory/${DAYS.chinese}.md#L6`);
    expect(zhang.every((h) => h.entities.includes("张三"))).toBe(true);
  });

  it("filters by kind", async () => {
    const { index } = await setUp();
    const opinions = await index.search("", { kind: "opinion", limit: 10 });
    expect(opinions.map((h) => [h.kind, h.snippet]).sort()).toEqual([
      ["opinion", "@Bob prefers Rust for services"],
      ["opinion", "@Bob prefers Rust for services"],
      ["opinion", "@张三 喜欢 PostgreSQL"],
    ]);
    const experience = await index.search("talk", { kind: "experience" });
    expect(experience.map((h) => h.key)).toEqual([`fact:memory/${DAYS.recent}.md#L7`]);
  });

  it("filters by time: '30d', a date, or until", async () => {
    const { index } = await setUp();
    const rust = async (options: { since?: string; until?: string }) =>
      (await index.search("Rust", { kind: "opinion", ...options, limit: 10 })).map((h) => h.path);

    expect(await rust({})).toHaveLength(2);
    expect(await rust({ since: "30d" })).toEqual([`memory/${DAYS.recent}.md`]);
    expect(await rust({ since: DAYS.recent })).toEqual([`memory/${DAYS.recent}.md`]);
    expect(await rust({ until: DAYS.recent })).toEqual([`memory/${DAYS.old}.md`]);
    await expect(index.search("Rust", { since: "yesterday" })).rejects.toMatchObject({
      code: "INVALID_INPUT",
      field: "since",
    });
  });

  it("keeps snippets to 700 characters around the match", async () => {
    const dir = tempDir();
    const filler = "Lorem ipsum dolor sit amet, consectetur adipiscing elit. ".repeat(20);
    writeFiles(dir, { "memory/long.md": `# Long\n\n${filler}The needle is here. ${filler}\n` });
    const memory = await openMemory(dir);
    const index = openIndex(memory, dir);
    await index.sync();

    const [hit] = await index.search("needle");
    expect(hit?.snippet.length).toBeLessThanOrEqual(700);
    expect(hit?.snippet).toContain("The needle is here.");
    expect(hit?.snippet.startsWith("…")).toBe(true);
  });

  it("names the provider and model that answered", async () => {
    const dir = tempDir();
    writeFixtureWorkspace(dir);
    const memory = await openMemory(dir, { embeddings: createHashingEmbeddingProvider() });
    const index = openIndex(memory, dir);
    await index.sync();
    await memory.flush();

    const hits = await index.search("conference warelay Alice", { limit: 10 });
    expect(hits.map((h) => h.path)).toContain(`memory/${DAYS.recent}.md`);
    for (const hit of hits) expect(hit).toMatchObject({ provider: "hashing", model: "hashing-v1" });
  });

  it("reads memory files through the index with the same rules", async () => {
    const { index } = await setUp();
    expect(await index.read("MEMORY.md", { from: 3, lines: 1 })).toEqual({
      path: "MEMORY.md",
      text: "## Preferences",
      from: 3,
      to: 3,
    });
    await expect(index.read("../MEMORY.md")).rejects.toMatchObject({ code: "INVALID_INPUT" });
  });

  it("rejects bad options with INVALID_INPUT naming the option", async () => {
    const { index } = await setUp();
    await expect(index.search("x", { kind: "rumour" as never })).rejects.toMatchObject({ field: "kind" });
    await expect(index.search("x", { limit: 0 })).rejects.toMatchObject({ field: "limit" });
    await expect(index.search("x", { entity: "@" })).rejects.toMatchObject({ field: "entity" });
  });
});
