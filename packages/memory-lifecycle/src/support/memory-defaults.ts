import { dirname } from "node:path";
import type { Logger, Memory } from "@claw/memory-api";
import { silentLogger } from "@claw/memory-api";
import { DEFAULT_CONFIG, type MemorySettings, memoryContextOf } from "@claw/memory-core";

/** The `[memory]` settings the memory was created with (createMemory), else the defaults. */
export function settingsOf(memory: Memory): MemorySettings {
  return memoryContextOf(memory)?.config.memory ?? DEFAULT_CONFIG.memory;
}

export function loggerOf(memory: Memory): Logger {
  return memoryContextOf(memory)?.logger ?? silentLogger;
}

/** The given folder, else the workspace createMemory used, else the database's folder. */
export async function workspaceOf(memory: Memory, explicit?: string): Promise<string | undefined> {
  if (explicit !== undefined) return explicit;
  const context = memoryContextOf(memory);
  if (context !== undefined) return context.workspaceDir;
  const path = (await memory.status()).path;
  return path === undefined ? undefined : dirname(path);
}
