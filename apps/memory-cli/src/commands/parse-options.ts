import type { Metadata, WhereFilter } from "@claw/memory-api";
import { UsageError } from "../exit-codes.js";

/** A positive integer option, or a usage error naming the option. */
export function integerOption(value: string | undefined, name: string, min = 1): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min)
    throw new UsageError(`${name} expects an integer ≥ ${min}, got ${JSON.stringify(value)}`);
  return n;
}

export function numberOption(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === "" || !Number.isFinite(n))
    throw new UsageError(`${name} expects a number, got ${JSON.stringify(value)}`);
  return n;
}

/**
 * `--since 30d`, `--since 2026-11-01`: an age ("30m", "12h", "7d", "2w", "1y"), a day or a
 * timestamp, read by the parser every interface uses (memory-core's parseTimeBound, loaded when
 * needed so that the CLI starts fast); a bad value is a usage error naming the option.
 */
export async function timeOption(
  value: string | undefined,
  name: string,
  now: Date,
): Promise<string | undefined> {
  if (value === undefined) return undefined;
  const { parseTimeBound } = await import("@claw/memory-core");
  try {
    return parseTimeBound(value, now, name);
  } catch (error) {
    // The message names the option: "--since: expected an age (…), got …".
    throw new UsageError((error as Error).message);
  }
}

/** `--category core,daily` or a repeated `--category`: the list, or undefined. */
export function listOption(value: string[] | string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const items = (Array.isArray(value) ? value : [value]).flatMap((v) => v.split(",")).map((v) => v.trim());
  const kept = items.filter((v) => v !== "");
  return kept.length === 0 ? undefined : kept;
}

/** Everything on stdin as text (for `store <key>` without content, `import` without a file). */
export async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream)
    chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString("utf8");
}

const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/**
 * A `--meta` or `--where` value: a JSON number, boolean or null when it parses as one (`2`,
 * `false`, `null`), else the text itself (`alpha`, `007`, `"quoted"` with its quotes).
 */
export function scalarOf(text: string): string | number | boolean | null {
  if (text === "true" || text === "false") return text === "true";
  if (text === "null") return null;
  return JSON_NUMBER.test(text) ? Number(text) : text;
}

/**
 * `--metadata '{…}'` and repeated `--meta key=value` as one object: a dotted key nests
 * (`owner.team=core`), and a --meta wins over --metadata (and a later --meta over an earlier one) on
 * the same key. Only the syntax is checked here; the library validates what the object holds.
 */
export function metadataOption(
  json: string | undefined,
  pairs: readonly string[] = [],
): Metadata | undefined {
  if (json === undefined && pairs.length === 0) return undefined;
  const metadata = json === undefined ? {} : jsonObjectOf(json, "--metadata");
  for (const pair of pairs) {
    const at = pair.indexOf("=");
    const path = pair.slice(0, Math.max(at, 0)).trim().split(".");
    if (at < 0 || path.some((segment) => segment === "")) {
      throw new UsageError(
        `--meta expects key=value (a dotted key nests: owner.team=core), got ${JSON.stringify(pair)}`,
      );
    }
    setPath(metadata, path, scalarOf(pair.slice(at + 1)));
  }
  return metadata as Metadata;
}

/** `field=value`, `field!=value`, `field>=2`…: the operator, longest first where two share a start. */
const WHERE_PAIR = /^([^=!<>]+)(!=|>=|<=|=|>|<)([\s\S]*)$/;
const OPERATOR_OF: Readonly<Record<string, string>> = {
  "!=": "$ne",
  ">": "$gt",
  ">=": "$gte",
  "<": "$lt",
  "<=": "$lte",
};

/**
 * Repeated `--where` values, ANDed into one filter: a JSON object (`{"priority":{"$gte":2}}`) or a
 * pair (`project=alpha`, `status!=done`, `priority>=2`; values read as --meta reads them). Two
 * conditions on one field merge (`priority>=2` and `priority<5`); only the syntax is checked here,
 * the library validates fields, operators and values.
 */
export function whereOption(values: readonly string[] = []): WhereFilter | undefined {
  if (values.length === 0) return undefined;
  const filter: Record<string, unknown> = {};
  for (const value of values) {
    if (value.trimStart().startsWith("{")) {
      for (const [field, condition] of Object.entries(jsonObjectOf(value, "--where")))
        addCondition(filter, field, condition);
      continue;
    }
    const match = WHERE_PAIR.exec(value);
    const field = match?.[1]?.trim() ?? "";
    if (match === null || field === "") {
      throw new UsageError(
        `--where expects a JSON object or field=value (also !=, >, >=, <, <=), got ${JSON.stringify(value)}`,
      );
    }
    const operator = OPERATOR_OF[match[2] as string];
    const operand = scalarOf(match[3] as string);
    addCondition(filter, field, operator === undefined ? operand : { [operator]: operand });
  }
  return filter as WhereFilter;
}

/** ANDs a condition into the filter; a field already there gets the new operators added. */
function addCondition(filter: Record<string, unknown>, field: string, condition: unknown): void {
  if (!Object.hasOwn(filter, field)) {
    define(filter, field, condition);
    return;
  }
  const merged = operatorsOf(filter[field]);
  const added = operatorsOf(condition);
  if (merged === undefined || added === undefined)
    throw new UsageError(`--where: ${field} is given twice and cannot be merged`);
  for (const [operator, operand] of Object.entries(added)) {
    if (Object.hasOwn(merged, operator) && JSON.stringify(merged[operator]) !== JSON.stringify(operand))
      throw new UsageError(`--where: ${field} is given two different ${operator} conditions`);
    define(merged, operator, operand);
  }
  define(filter, field, merged);
}

/** A condition as `{ $operator: value }` (a plain value is $eq); undefined for an array. */
function operatorsOf(condition: unknown): Record<string, unknown> | undefined {
  if (typeof condition !== "object" || condition === null) return { $eq: condition };
  return Array.isArray(condition) ? undefined : { ...condition };
}

function jsonObjectOf(text: string, name: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${name} expects a JSON object: ${(error as Error).message}`);
  }
  if (!isObject(value)) throw new UsageError(`${name} expects a JSON object, got ${text}`);
  return value;
}

/** Sets `path` in `target`, replacing whatever is not an object on the way. */
function setPath(target: Record<string, unknown>, path: readonly string[], value: unknown): void {
  let node = target;
  for (const segment of path.slice(0, -1)) {
    const next = Object.hasOwn(node, segment) ? node[segment] : undefined;
    const child = isObject(next) ? next : {};
    define(node, segment, child);
    node = child;
  }
  define(node, path[path.length - 1] as string, value);
}

/** An own property even for "__proto__" (plain assignment would replace the prototype). */
function define(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
