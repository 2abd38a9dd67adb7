// Turns what createMemory was given as `config` into the validated configuration.
import { join } from "node:path";
import { isMemoryError, type Logger, silentLogger } from "@claw/memory-api";
import type { MemoryConfig, MemoryConfigInput } from "./config-schema.js";
import { loadConfig } from "./load-config.js";
import { parseConfig } from "./parse-config.js";

/** The config file looked for in the workspace when none is given. */
export const CONFIG_FILE_NAME = "claw-memory.toml";

export interface ResolveConfigOptions {
  /** Where `claw-memory.toml` is looked for when no config is given. */
  workspaceDir: string;
  logger?: Logger;
  /** What an inline server token in a world-readable file does (see LoadConfigOptions). */
  inlineTokens?: "refuse" | "warn";
}

/**
 * A string is the path of a TOML file (relative paths resolve against the working directory);
 * an object is a camelCase config; nothing means `{workspaceDir}/claw-memory.toml` when that file
 * exists, else the defaults.
 */
export async function resolveConfig(
  config: MemoryConfigInput | string | undefined,
  options: ResolveConfigOptions,
): Promise<MemoryConfig> {
  const logger = options.logger ?? silentLogger;
  const inlineTokens = options.inlineTokens;
  if (typeof config === "string") return loadConfig(config, { logger, inlineTokens });
  if (config !== undefined) return parseConfig(config, { logger });
  const path = join(options.workspaceDir, CONFIG_FILE_NAME);
  try {
    const loaded = await loadConfig(path, { logger, inlineTokens });
    logger.debug("loaded the workspace config file", { path });
    return loaded;
  } catch (error) {
    // Only a missing file means "use the defaults": an unreadable or invalid one must not be ignored.
    if (!isMemoryError(error, "NOT_FOUND")) throw error;
    logger.debug("no workspace config file, using the defaults", { path });
    return parseConfig({}, { logger });
  }
}
