import type { Logger, Memory, MemoryPlugin, PluginContext, TextGenerator } from "@claw/memory-api";
import type { MemoryConfig } from "./config/config-schema.js";

/**
 * What createMemory knew when it made a memory: lifecycle functions read their defaults from it
 * (retention days, conflict threshold, the workspace folder, the curator's generator) so callers
 * need not pass the config twice. A memory createMemory made carries it as `memory.context`.
 */
export interface MemoryContext {
  config: MemoryConfig;
  workspaceDir: string;
  dbPath: string;
  generator?: TextGenerator;
  logger: Logger;
}

/** A Memory made by createMemory: it carries its context. */
export type ConfiguredMemory = Memory & { readonly context: MemoryContext };

/** The context of plugins run by createMemory: the config is memory-core's MemoryConfig. */
export type ClawPluginContext = PluginContext<MemoryConfig>;
/** A plugin for createMemory: its hooks get memory-core's MemoryConfig (lifecyclePlugin() is one). */
export type ClawPlugin = MemoryPlugin<MemoryConfig>;

/** The context a memory carries (`memory.context`), or undefined for a memory made another way. */
export function memoryContextOf(memory: Memory): MemoryContext | undefined {
  const context = (memory as { context?: Partial<MemoryContext> }).context;
  if (context === undefined || context === null || typeof context !== "object") return undefined;
  return typeof context.workspaceDir === "string" && context.config !== undefined
    ? (context as MemoryContext)
    : undefined;
}
