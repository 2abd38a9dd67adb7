// Loads the TOML config file: read, parse, snake_case → camelCase, validate, and refuse inline
// tokens in a file anyone on the machine can read (token hashes are not tokens).
import type { FileHandle } from "node:fs/promises";
import { open } from "node:fs/promises";
import { type Logger, MemoryError, silentLogger } from "@claw/memory-api";
import { parse, TomlError } from "smol-toml";
import { convertTomlKeys, formatConfigKey } from "./config-keys.js";
import type { MemoryConfig } from "./config-schema.js";
import { parseConfig } from "./parse-config.js";

export interface LoadConfigOptions {
  /** Receives warnings (unknown keys, inline API keys in a world-readable file). Default: silent. */
  logger?: Logger;
  /**
   * An inline `[[server.tokens]] token` in a file anyone on the machine can read: "refuse"
   * (INVALID_INPUT; what a server that would accept those tokens does) or "warn" (the default: a
   * command that starts no server does not use them, and is not blocked by them).
   */
  inlineTokens?: "refuse" | "warn";
}

export interface LoadConfigFromTomlOptions extends LoadConfigOptions {
  /** Where the text came from, named in errors. Default: "TOML text". */
  source?: string;
}

const WORLD_READABLE = 0o004;

/**
 * Loads and validates a TOML config file; without a path, returns the defaults.
 * A missing file is NOT_FOUND, an unreadable one STORAGE, bad TOML or bad values INVALID_INPUT.
 */
export async function loadConfig(path?: string, options: LoadConfigOptions = {}): Promise<MemoryConfig> {
  if (path === undefined) return parseConfig({}, options);
  const { text, mode } = await readConfigFile(path);
  const config = loadConfigFromToml(text, { ...options, source: path });
  checkInlineSecrets(config, mode, path, options.logger ?? silentLogger, options.inlineTokens ?? "warn");
  return config;
}

/** Parses and validates TOML text (the file's contents) without touching the file system. */
export function loadConfigFromToml(text: string, options: LoadConfigFromTomlOptions = {}): MemoryConfig {
  const source = options.source ?? "TOML text";
  let document: unknown;
  try {
    document = parse(text);
  } catch (error) {
    throw tomlSyntaxError(error, source);
  }
  return parseConfig(convertTomlKeys(document, { source }), { ...options, source });
}

function tomlSyntaxError(error: unknown, source: string): MemoryError {
  if (error instanceof TomlError) {
    // Only the first line: the rest quotes the file, which may hold a token.
    const reason = (error.message.split("\n")[0] ?? "").replace(/^Invalid TOML document:\s*/, "");
    return new MemoryError(
      "INVALID_INPUT",
      `invalid TOML in ${source} at line ${error.line}, column ${error.column}: ${reason}`,
      { cause: error },
    );
  }
  const reason = error instanceof Error ? error.message : String(error);
  return new MemoryError("INVALID_INPUT", `invalid TOML in ${source}: ${reason}`, { cause: error });
}

async function readConfigFile(path: string): Promise<{ text: string; mode: number }> {
  let handle: FileHandle;
  try {
    handle = await open(path, "r");
  } catch (error) {
    throw fileError(path, error);
  }
  try {
    // The mode and the text come from the same open file.
    const stats = await handle.stat();
    const text = await handle.readFile({ encoding: "utf8" });
    return { text, mode: stats.mode };
  } catch (error) {
    throw fileError(path, error);
  } finally {
    await handle.close();
  }
}

function fileError(path: string, error: unknown): MemoryError {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  // ENOTDIR: a component of the path is a file, so this file cannot exist either.
  if (code === "ENOENT" || code === "ENOTDIR")
    return new MemoryError("NOT_FOUND", `config file not found: ${path}`, { cause: error });
  const reason = error instanceof Error ? error.message : String(error);
  return new MemoryError("STORAGE", `cannot read config file ${path}: ${reason}`, { cause: error });
}

/** An inline token in a world-readable file is refused or warned about; an inline API key is warned about. */
function checkInlineSecrets(
  config: MemoryConfig,
  mode: number,
  path: string,
  logger: Logger,
  inlineTokens: "refuse" | "warn",
): void {
  // Windows has no POSIX permission bits: stat reports 0o666 for every writable file. A token_sha256
  // is not a credential: a file holding only hashes (and token_env names) may be read by anyone.
  if (process.platform === "win32" || (mode & WORLD_READABLE) === 0) return;
  const permissions = (mode & 0o777).toString(8).padStart(3, "0");
  const index = config.server.tokens.findIndex((entry) => entry.token !== undefined);
  if (index !== -1) {
    const key = formatConfigKey(["server", "tokens", index, "token"]);
    const problem =
      `expected a config file holding an inline token not to be world-readable, got mode ${permissions} ` +
      `on ${path}: run chmod 600 ${path}, or store its hash (token_sha256, from claw-memory token create NAME) ` +
      "or use token_env instead of token";
    if (inlineTokens === "refuse") throw MemoryError.invalidInput(key, problem);
    logger.warn(`${key}: ${problem}`, { key, source: path });
  }
  for (const [name, provider] of Object.entries(config.providers)) {
    if (provider.apiKey === undefined) continue;
    const key = formatConfigKey(["providers", name, "apiKey"]);
    logger.warn(
      `${key} is an inline API key in a world-readable file: run chmod 600 ${path} or use api_key_env`,
      {
        key,
        source: path,
      },
    );
  }
}
