import type { Logger } from "./logger.js";
import type { Memory } from "./memory.js";

export interface PluginContext {
  workspaceDir: string;
  dbPath: string;
  /** The validated, defaults-filled configuration (MemoryConfig from @claw/memory-core). */
  config: unknown;
  logger: Logger;
}

/** Start-up/shutdown hooks run by createMemory, e.g. lifecyclePlugin(). */
export interface MemoryPlugin {
  name: string;
  beforeOpen?(ctx: PluginContext): Promise<void>;
  afterOpen?(memory: Memory, ctx: PluginContext): Promise<void>;
  beforeClose?(memory: Memory, ctx: PluginContext): Promise<void>;
}
