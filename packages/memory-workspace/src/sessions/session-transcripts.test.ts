import { appendFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openIndex, openMemory, tempDir, writeFiles } from "../test-support/temp-workspace.js";

function line(role: string, text: string, timestamp?: string): string {
  return `${JSON.stringify(timestamp ? { role, content: text, timestamp } : { role, content: text })}\n`;
}

async function setUp(deltaMessages: number) {
  const dir = tempDir();
  const sessions = tempDir();
  writeFiles(dir, { "MEMORY.md": "# Memory\n" });
  const memory = await openMemory(dir);
  const index = openIndex(memory, dir, { sessions: { dir: sessions, deltaMessages, deltaBytes: 1_000_000 } });
  return { sessions, memory, index };
}

describe("session transcripts", () => {
  it("indexes a transcript as conversation entries once it passes the message threshold", async () => {
    const { sessions, memory, index } = await setUp(3);
    await index.sync(); // the first sync indexes every transcript whatever its size
    const path = join(sessions, "s-42.jsonl");
    writeFileSync(path, line("user", "Where do we deploy the relay?", "2026-06-01T10:00:00Z"));
    appendFileSync(path, `${JSON.stringify({ type: "session", id: "s-42" })}\n`);

    expect((await index.sync()).files).toBe(1); // below the threshold: not yet
    expect(await memory.count({ category: "conversation" })).toBe(0);

    appendFileSync(
      path,
      `${JSON.stringify({ type: "message", message: { role: "assistant", content: [{ type: "text", text: "On the castle host." }] } })}\n`,
    );
    const report = await index.sync();

    expect(report).toMatchObject({ added: 1, files: 2 });
    const [entry] = await memory.export({ category: "conversation" });
    expect(entry).toMatchObject({
      key: "session:sessions/s-42.jsonl#0",
      content: "user: Where do we deploy the relay?\n\nassistant: On the castle host.",
      sessionId: "s-42",
      source: { path: "sessions/s-42.jsonl", startLine: 1, endLine: 3 },
      createdAt: "2026-06-01T10:00:00.000Z",
    });
    const hits = await index.search("castle host");
    expect(hits[0]).toMatchObject({ origin: "session", path: "sessions/s-42.jsonl" });
  });

  it("waits for the next threshold before re-indexing a growing transcript, unless a full sync asks", async () => {
    const { sessions, memory, index } = await setUp(2);
    const path = join(sessions, "s-1.jsonl");
    writeFileSync(path, line("user", "first") + line("assistant", "second"));
    await index.sync();
    appendFileSync(path, line("user", "third"));

    expect(await index.sync()).toMatchObject({ added: 0, updated: 0 });
    expect((await memory.export({ category: "conversation" }))[0]?.content).not.toContain("third");

    expect(await index.sync({ full: true })).toMatchObject({ updated: 1 });
    expect((await memory.export({ category: "conversation" }))[0]?.content).toContain("user: third");
  });

  it("removes a deleted transcript's entries", async () => {
    const { sessions, memory, index } = await setUp(1);
    writeFileSync(join(sessions, "gone.jsonl"), line("user", "temporary"));
    await index.sync();
    expect(await memory.count({ category: "conversation" })).toBe(1);
    rmSync(join(sessions, "gone.jsonl"));
    expect(await index.sync()).toMatchObject({ removed: 1 });
    expect(await memory.count({ category: "conversation" })).toBe(0);
  });

  it("keeps transcripts out of read()", async () => {
    const { index } = await setUp(1);
    await expect(index.read("sessions/s-1.jsonl")).rejects.toMatchObject({ code: "INVALID_INPUT" });
  });
});
