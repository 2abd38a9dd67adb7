// Validates a camelCase config object against the schema: fills defaults, warns about unknown keys,
// and turns invalid values into INVALID_INPUT naming the TOML key the user wrote.
import { type Logger, MemoryError, silentLogger } from "@claw/memory-api";
import { type ConfigProblem, readConfigIssues } from "./config-issues.js";
import { formatConfigKey, isPlainTable } from "./config-keys.js";
import { type MemoryConfig, memoryConfigSchema, memorySettingsSchema } from "./config-schema.js";

export interface ParseConfigOptions {
  /** Receives one warning per unknown key. Default: silent. */
  logger?: Logger;
  /** Where the config came from (a file path), named in errors and warnings. */
  source?: string;
}

const SECTION_NAMES: ReadonlySet<string> = new Set(Object.keys(memoryConfigSchema.shape));
const MEMORY_SETTING_NAMES: ReadonlySet<string> = new Set(Object.keys(memorySettingsSchema.shape));

/**
 * Validates a camelCase config object (`{ memory, server, providers, postgres }`; a `[memory]`
 * setting may also be given at the top level) and fills in the defaults. Unknown keys are logged
 * as warnings and ignored; invalid values throw INVALID_INPUT naming the dotted TOML key.
 */
export function parseConfig(input: unknown, options: ParseConfigOptions = {}): MemoryConfig {
  const logger = options.logger ?? silentLogger;
  const candidate = hoistMemorySettings(copyTables(input ?? {}));
  // Unknown keys fail a strict schema; each round removes the ones reported and parses again.
  for (;;) {
    const result = memoryConfigSchema.safeParse(candidate);
    if (result.success) return result.data;
    const report = readConfigIssues(result.error.issues, candidate);
    let removed = 0;
    for (const path of report.unknownKeys) {
      const key = formatConfigKey(path);
      logger.warn(
        `unknown config key ${key}`,
        options.source === undefined ? { key } : { key, source: options.source },
      );
      if (deleteAt(candidate, path)) removed += 1;
    }
    const [first, ...rest] = report.problems;
    if (first !== undefined) throw invalidConfig(first, rest, options.source);
    if (removed === 0) {
      // Unreachable unless zod reports an issue this module cannot read; never loop on it.
      throw new MemoryError("INVALID_INPUT", `invalid config: ${result.error.message}`, {
        cause: result.error,
      });
    }
  }
}

function invalidConfig(first: ConfigProblem, rest: readonly ConfigProblem[], source?: string): MemoryError {
  const others = rest.map((problem) => `; ${formatConfigKey(problem.path)}: ${problem.message}`).join("");
  const where = source === undefined ? "" : ` (in ${source})`;
  return MemoryError.invalidInput(formatConfigKey(first.path), `${first.message}${others}${where}`);
}

/** Moves top-level `[memory]` settings (the flat convenience form) into `memory`. */
function hoistMemorySettings(input: unknown): unknown {
  if (!isPlainTable(input)) return input;
  const flat = Object.keys(input).filter((key) => !SECTION_NAMES.has(key) && MEMORY_SETTING_NAMES.has(key));
  if (flat.length === 0) return input;
  const memory = input.memory ?? Object.create(null);
  // A `memory` that is not a table is left for the schema to report.
  if (!isPlainTable(memory)) return input;
  for (const key of flat) {
    if (Object.hasOwn(memory, key)) {
      throw MemoryError.invalidInput(
        formatConfigKey(["memory", key]),
        "expected the setting once, got it both at the top level and in memory",
      );
    }
    memory[key] = input[key];
    delete input[key];
  }
  input.memory = memory;
  return input;
}

/** A private copy of the tables and arrays (so unknown keys can be removed); other values are shared. */
function copyTables(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(copyTables);
  if (!isPlainTable(value)) return value;
  const copy: Record<string, unknown> = Object.create(null);
  for (const [key, item] of Object.entries(value)) copy[key] = copyTables(item);
  return copy;
}

function deleteAt(root: unknown, path: readonly PropertyKey[]): boolean {
  let table = root;
  for (const segment of path.slice(0, -1)) {
    if (typeof segment === "number" && Array.isArray(table)) table = table[segment];
    else if (typeof segment === "string" && isPlainTable(table)) table = table[segment];
    else return false;
  }
  const last = path[path.length - 1];
  if (typeof last !== "string" || !isPlainTable(table) || !Object.hasOwn(table, last)) return false;
  delete table[last];
  return true;
}
