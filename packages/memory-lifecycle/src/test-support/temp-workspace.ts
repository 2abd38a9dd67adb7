import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Logger, Memory } from "@claw/memory-api";
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

/** A logger that keeps its messages, prefixed by level, in order. */
export function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const push = (level: string) => (message: string) => {
    lines.push(`${level}: ${message}`);
  };
  return { lines, debug: push("debug"), info: push("info"), warn: push("warn"), error: push("error") };
}
