import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Memory } from "@claw/memory-api";
import { type CreateMemoryOptions, createMemory } from "@claw/memory-core";
import { onTestFinished } from "vitest";

/** A fresh folder removed after the test. */
export function tempWorkspace(): string {
  const dir = mkdtempSync(join(tmpdir(), "claw-lifecycle-test-"));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** createMemory on a real SQLite file, keyword-only unless told otherwise, closed after the test. */
export async function openWorkspaceMemory(options: CreateMemoryOptions = {}): Promise<Memory> {
  const memory = await createMemory({ embeddings: null, workspaceDir: tempWorkspace(), ...options });
  onTestFinished(() => memory.close());
  return memory;
}

export { recordingLogger } from "@claw/memory-core/testkit";
