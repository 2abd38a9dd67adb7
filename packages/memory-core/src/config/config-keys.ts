// TOML spells keys in snake_case, the config object in camelCase: this file converts between the two
// and formats the dotted TOML key that error messages and warnings name.
import { MemoryError } from "@claw/memory-api";

/**
 * Tables whose keys are names chosen by the user, not settings: their keys are kept verbatim
 * (`[providers.my_proxy]` stays `my_proxy`), while the settings inside them are converted.
 * `*` matches any key at that level.
 */
const VERBATIM_KEY_TABLES: readonly (readonly string[])[] = [["providers"]];

const SNAKE_KEY = /^[a-z][a-z0-9_]*$/;
const CAMEL_KEY = /^[a-z][a-zA-Z0-9]*$/;
const BARE_TOML_KEY = /^[A-Za-z0-9_-]+$/;

/** `conflict_threshold` → `conflictThreshold`; keys that are not lower snake_case are returned as given. */
export function snakeToCamel(key: string): string {
  if (!SNAKE_KEY.test(key)) return key;
  return key.replace(/_([a-z])/g, (_match, letter: string) => letter.toUpperCase());
}

/** `conflictThreshold` → `conflict_threshold`; keys that are not camelCase identifiers are returned as given. */
export function camelToSnake(key: string): string {
  if (!CAMEL_KEY.test(key)) return key;
  return key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

/** True when the keys of the table at `tablePath` are user-chosen names (kept verbatim). */
export function hasVerbatimKeys(tablePath: readonly PropertyKey[]): boolean {
  const names = tablePath.filter((segment): segment is string => typeof segment === "string");
  if (names.length !== tablePath.length) return false;
  return VERBATIM_KEY_TABLES.some(
    (pattern) =>
      pattern.length === names.length &&
      pattern.every((part, index) => part === "*" || part === names[index]),
  );
}

/** A plain table: what smol-toml and object literals produce (not arrays, dates or class instances). */
export function isPlainTable(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === null || prototype === Object.prototype;
}

/**
 * Converts the keys of a parsed TOML document to camelCase, recursively through tables and arrays
 * of tables, except the keys of the tables listed in VERBATIM_KEY_TABLES. Values are never touched.
 * Two keys that convert to the same name (`search_mode` and `searchMode`) are an INVALID_INPUT.
 */
export function convertTomlKeys(document: unknown, options: { source?: string } = {}): unknown {
  return convertAt(document, [], options.source);
}

function convertAt(value: unknown, path: readonly PropertyKey[], source: string | undefined): unknown {
  if (Array.isArray(value)) return value.map((item, index) => convertAt(item, [...path, index], source));
  if (!isPlainTable(value)) return value;
  const verbatim = hasVerbatimKeys(path);
  // A null prototype keeps a `__proto__` key in the file an ordinary key.
  const result: Record<string, unknown> = Object.create(null);
  const originals = new Map<string, string>();
  for (const [key, item] of Object.entries(value)) {
    const converted = verbatim ? key : snakeToCamel(key);
    const earlier = originals.get(converted);
    if (earlier !== undefined) {
      const where = source === undefined ? "" : ` (in ${source})`;
      throw MemoryError.invalidInput(
        formatConfigKey([...path, converted]),
        `expected the key once, got it twice (as ${earlier} and ${key})${where}`,
      );
    }
    originals.set(converted, key);
    result[converted] = convertAt(item, [...path, converted], source);
  }
  return result;
}

/**
 * The dotted TOML key for a path through the camelCase config:
 * `["server", "tokens", 0, "tokenEnv"]` → `server.tokens[0].token_env`.
 */
export function formatConfigKey(path: readonly PropertyKey[]): string {
  let key = "";
  path.forEach((segment, index) => {
    if (typeof segment === "number") {
      key += `[${segment}]`;
      return;
    }
    const name = String(segment);
    const shown = hasVerbatimKeys(path.slice(0, index)) ? name : camelToSnake(name);
    const quoted = BARE_TOML_KEY.test(shown) ? shown : JSON.stringify(shown);
    key += key === "" ? quoted : `.${quoted}`;
  });
  return key === "" ? "config" : key;
}
