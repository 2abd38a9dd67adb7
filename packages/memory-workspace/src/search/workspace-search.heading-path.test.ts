import { describe, expect, it } from "vitest";
import { openIndex, openMemory, tempDir, writeFiles } from "../test-support/temp-workspace.js";

describe("a chunk is found by the headings above it", () => {
  it("finds a section's chunk by its parent heading's words, kept out of the content", async () => {
    const dir = tempDir();
    writeFiles(dir, {
      "memory/projects.md":
        "# Project Falcon\n\nThe bird-watching app.\n\n## Decisions\n\n- Store sightings in PostgreSQL with pgvector.\n\n" +
        "# Project Heron\n\nThe recipe app.\n\n## Decisions\n\n- Store recipes in SQLite.\n",
    });
    const memory = await openMemory(dir);
    const index = openIndex(memory, dir);
    await index.sync();
    const hits = await index.search("falcon decisions storage", { mode: "bm25", limit: 2 });
    expect(hits[0]?.snippet).toContain("PostgreSQL with pgvector");
    expect(hits[0]?.snippet).not.toContain("Falcon");
    const entry = await memory.get(hits[0]?.key as string);
    expect(entry?.context).toBe("Project Falcon > Decisions");
  });
});
