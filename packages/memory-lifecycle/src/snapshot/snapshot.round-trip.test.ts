import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { MemoryEntry } from "@claw/memory-api";
import { createMemory } from "@claw/memory-core";
import { describe, expect, it } from "vitest";
import { openWorkspaceMemory, recordingLogger, tempWorkspace } from "../test-support/temp-workspace.js";
import { exportSnapshot, hydrateFromSnapshot } from "./snapshot.js";
import { parseSnapshot, renderSnapshot, SNAPSHOT_FILE } from "./snapshot-format.js";

const CORE: Array<Partial<MemoryEntry>> = [
  {
    key: "editor",
    content: "The user edits code in Helix",
    importance: 0.9,
    createdAt: "2024-05-01T08:00:00.000Z",
    updatedAt: "2024-05-02T09:30:00.000Z",
  },
  {
    key: "editor_old",
    content: "[SUPERSEDED by 'editor'] The user edits code in Vim",
    supersededBy: "editor",
    importance: 0.7,
    createdAt: "2024-04-01T08:00:00.000Z",
    updatedAt: "2024-04-01T08:00:00.000Z",
  },
  {
    key: "fences\nand ## headings",
    content: "## not a heading\n```ts\nconst x = 1;\n```\n````\nstill content\r\nwith CRLF\n",
    namespace: "tenant-b",
    sessionId: "s-7",
    importance: 0.75,
    createdAt: "2024-06-10T00:00:00.000Z",
    updatedAt: "2024-06-11T00:00:00.000Z",
  },
  {
    key: "notes.md#setup",
    content: "Setup: run pnpm install",
    source: { path: "notes.md", startLine: 3, endLine: 9 },
    createdAt: "2024-06-10T00:00:00.000Z",
    updatedAt: "2024-06-10T00:00:00.000Z",
  },
].map((e) => ({ category: "core", ...e }));

describe("exportSnapshot / hydrateFromSnapshot", () => {
  it("round-trips byte for byte: export → delete brain.db → hydrate → export", async () => {
    const workspaceDir = tempWorkspace();
    const first = await createMemory({ workspaceDir, embeddings: null });
    await first.import([...CORE, { key: "d", content: "a daily note", category: "daily" }]);
    const exported = await exportSnapshot(first, workspaceDir);
    expect(exported.count).toBe(4);
    await first.close();
    const before = readFileSync(join(workspaceDir, SNAPSHOT_FILE));
    for (const f of readdirSync(workspaceDir).filter((f) => f.startsWith("brain.db")))
      rmSync(join(workspaceDir, f));

    const second = await createMemory({ workspaceDir, embeddings: null });
    expect(await hydrateFromSnapshot(second, workspaceDir)).toBe(4);
    const editor = await second.get("editor");
    expect(editor?.createdAt).toBe("2024-05-01T08:00:00.000Z");
    expect(editor?.updatedAt).toBe("2024-05-02T09:30:00.000Z");
    expect((await second.get("editor_old"))?.supersededBy).toBe("editor");
    expect((await second.get("fences\nand ## headings", { namespace: "tenant-b" }))?.content).toBe(
      CORE[2]?.content,
    );
    await exportSnapshot(second, workspaceDir);
    await second.close();

    expect(readFileSync(join(workspaceDir, SNAPSHOT_FILE)).equals(before)).toBe(true);

    // Start-up works again afterwards, and the hydrated memories are searchable.
    const third = await createMemory({ workspaceDir, embeddings: null });
    expect((await third.recall("Helix")).map((e) => e.key)).toEqual(["editor"]);
    await third.close();
  });

  it("hydration is INSERT OR IGNORE: existing keys keep their newer content", async () => {
    const workspaceDir = tempWorkspace();
    const memory = await openWorkspaceMemory({ workspaceDir });
    await memory.import(CORE);
    await exportSnapshot(memory, workspaceDir);
    await memory.store("editor", "The user edits code in Zed");
    await memory.forget("notes.md#setup");

    expect(await hydrateFromSnapshot(memory, workspaceDir)).toBe(1);
    expect((await memory.get("editor"))?.content).toBe("The user edits code in Zed");
    expect((await memory.get("notes.md#setup"))?.source).toEqual({
      path: "notes.md",
      startLine: 3,
      endLine: 9,
    });
  });

  it("never replaces a snapshot with the contents of an empty store", async () => {
    const workspaceDir = tempWorkspace();
    const memory = await openWorkspaceMemory({ workspaceDir });
    await memory.import(CORE);
    await exportSnapshot(memory, workspaceDir);
    const saved = readFileSync(join(workspaceDir, SNAPSHOT_FILE), "utf8");
    await memory.purgeNamespace("default");
    await memory.purgeNamespace("tenant-b");

    const result = await exportSnapshot(memory, workspaceDir);
    expect(result).toMatchObject({ count: 0, written: false });
    expect(readFileSync(join(workspaceDir, SNAPSHOT_FILE), "utf8")).toBe(saved);
  });

  it("writes an empty snapshot when there is none yet", async () => {
    const workspaceDir = tempWorkspace();
    const memory = await openWorkspaceMemory({ workspaceDir });
    expect(await exportSnapshot(memory, workspaceDir)).toMatchObject({ count: 0, written: true });
    expect(parseSnapshot(readFileSync(join(workspaceDir, SNAPSHOT_FILE), "utf8")).entries).toEqual([]);
  });

  it("hydrates nothing without a snapshot", async () => {
    const workspaceDir = tempWorkspace();
    const memory = await openWorkspaceMemory({ workspaceDir });
    expect(await hydrateFromSnapshot(memory, workspaceDir)).toBe(0);
    expect(existsSync(join(workspaceDir, SNAPSHOT_FILE))).toBe(false);
  });

  it("skips a damaged section and a section the store rejects, keeping the rest", async () => {
    const workspaceDir = tempWorkspace();
    const logger = recordingLogger();
    const memory = await openWorkspaceMemory({ workspaceDir, logger });
    const good = renderSnapshot([{ ...CORE[0], namespace: "default" } as MemoryEntry]);
    const badDate = '\n## bad\n\n- key: "bad"\n- created: "yesterday"\n\n```text\nx\n```\n';
    const noKey = '\n## nokey\n\n- namespace: "default"\n\n```text\ny\n```\n';
    writeFileSync(join(workspaceDir, SNAPSHOT_FILE), good + badDate + noKey);

    expect(await hydrateFromSnapshot(memory, workspaceDir)).toBe(1);
    expect((await memory.export()).map((e) => e.key)).toEqual(["editor"]);
    expect(logger.lines.filter((l) => l.startsWith("warn: snapshot")).length).toBe(2);
  });
});
