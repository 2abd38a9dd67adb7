import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { Memory } from "@claw/memory-api";
import { type CreateMemoryOptions, createMemory } from "@claw/memory-core";
import { onTestFinished } from "vitest";
import { createWorkspaceIndex } from "../create-workspace-index.js";
import type { WorkspaceIndexOptions } from "../workspace-options.js";
import type { WorkspaceIndex } from "../workspace-types.js";

/** A fresh folder removed after the test. */
export function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "claw-workspace-test-"));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Writes each `relative path → text`, creating folders. */
export function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
}

/** createMemory on a real SQLite file in `workspaceDir`, keyword-only unless told otherwise, closed after the test. */
export async function openMemory(workspaceDir: string, options: CreateMemoryOptions = {}): Promise<Memory> {
  const memory = await createMemory({ embeddings: null, workspaceDir, ...options });
  onTestFinished(() => memory.close());
  return memory;
}

/** A workspace index closed after the test (before its memory). */
export function openIndex(memory: Memory, dir: string, options: WorkspaceIndexOptions = {}): WorkspaceIndex {
  const index = createWorkspaceIndex(memory, dir, options);
  onTestFinished(() => index.close());
  return index;
}

/** The day `offset` days from `today` (negative = before), as YYYY-MM-DD. */
export function day(offset: number, today = new Date()): string {
  return new Date(today.getTime() + offset * 86_400_000).toISOString().slice(0, 10);
}

export { recordingLogger } from "@claw/memory-core/testkit";
