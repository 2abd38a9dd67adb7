import type { Logger, Memory, TextGenerator } from "@claw/memory-api";
import type { MemoryConfig } from "./config/config-schema.js";

/**
 * What createMemory knew when it made a memory: lifecycle functions read their defaults from it
 * (retention days, conflict threshold, the workspace folder, the curator's generator) so callers
 * need not pass the config twice.
 */
export interface MemoryContext {
  config: MemoryConfig;
  workspaceDir: string;
  dbPath: string;
  generator?: TextGenerator;
  logger: Logger;
}

const contexts = new WeakMap<Memory, MemoryContext>();

export function attachMemoryContext(memory: Memory, context: MemoryContext): void {
  contexts.set(memory, context);
}

/** The context createMemory attached, or undefined for a memory made another way. */
export function memoryContextOf(memory: Memory): MemoryContext | undefined {
  return contexts.get(memory);
}
