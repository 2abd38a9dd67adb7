import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Logger } from "@claw/memory-api";
import { onTestFinished } from "vitest";
import { SqliteMemory } from "../sqlite/sqlite-memory.js";

/** A real SqliteMemory (keyword search) on a file in a fresh temp folder, closed and removed after the test. */
export function openTempSqliteMemory(): SqliteMemory {
  const dir = mkdtempSync(join(tmpdir(), "claw-memory-test-"));
  const memory = SqliteMemory.open({ path: join(dir, "brain.db") });
  onTestFinished(async () => {
    await memory.close();
    rmSync(dir, { recursive: true, force: true });
  });
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
