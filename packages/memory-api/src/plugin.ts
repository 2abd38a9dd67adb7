import type { Logger } from "./logger.js";
import type { Memory } from "./memory.js";

/**
 * What a plugin's hooks receive. `TConfig` is the configuration type of the code that runs the
 * plugins: memory-core's createMemory passes its validated, defaults-filled `MemoryConfig`
 * (memory-core exports `ClawPluginContext` and `ClawPlugin` for it).
 */
export interface PluginContext<TConfig = unknown> {
  workspaceDir: string;
  dbPath: string;
  config: TConfig;
  logger: Logger;
}

/** Start-up/shutdown hooks run by createMemory, e.g. lifecyclePlugin(). */
export interface MemoryPlugin<TConfig = unknown> {
  name: string;
  /** Runs before the store opens. */
  beforeOpen?(ctx: PluginContext<TConfig>): Promise<void>;
  /** Runs once the store is open, before createMemory returns. */
  afterOpen?(memory: Memory, ctx: PluginContext<TConfig>): Promise<void>;
  /** Runs when close() is called, before the store is released. */
  beforeClose?(memory: Memory, ctx: PluginContext<TConfig>): Promise<void>;
}
