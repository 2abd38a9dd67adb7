// Reads zod's issues for the config: unknown keys apart (they only warn), every other issue as a
// problem at a path with an "expected …, got …" message.
import type { z } from "zod";
import { camelToSnake, hasVerbatimKeys, isPlainTable } from "./config-keys.js";

type Issue = z.core.$ZodIssue;

/** One invalid value: where (camelCase path) and what ("expected …, got …", without the key). */
export interface ConfigProblem {
  path: PropertyKey[];
  message: string;
}

export interface ConfigIssueReport {
  /** Paths of keys the schema does not know, the unknown key last. */
  unknownKeys: PropertyKey[][];
  problems: ConfigProblem[];
}

/** Fields whose values are never repeated in a message (a token pasted as `token_sha256` included). */
const SECRET_FIELDS: ReadonlySet<PropertyKey> = new Set(["token", "tokenSha256", "apiKey", "url"]);
const MAX_SHOWN_CHARS = 60;

export function readConfigIssues(issues: readonly Issue[], input: unknown): ConfigIssueReport {
  const report: ConfigIssueReport = { unknownKeys: [], problems: [] };
  for (const issue of issues) visit(issue, [], input, report);
  return report;
}

function visit(
  issue: Issue,
  prefix: readonly PropertyKey[],
  input: unknown,
  report: ConfigIssueReport,
): void {
  const path = [...prefix, ...issue.path];
  if (issue.code === "unrecognized_keys") {
    for (const key of issue.keys) report.unknownKeys.push([...path, key]);
    return;
  }
  if (issue.code === "invalid_union") {
    // A string-or-table setting: when the value has the shape of exactly one form, report that form's
    // issues (`merge_strategy.vector_weight`) rather than "matches neither form".
    const matching = issue.errors.filter((branch) => !isShapeMismatch(branch));
    const [only] = matching;
    if (matching.length === 1 && only !== undefined) {
      for (const inner of only) visit(inner, path, input, report);
      return;
    }
  }
  report.problems.push({
    path,
    message: `${expectation(issue)}, got ${describeValue(valueAt(input, path), path)}`,
  });
}

/** A union branch that failed on the value's type itself, not on something inside it. */
function isShapeMismatch(branch: readonly Issue[]): boolean {
  return (
    branch.length > 0 &&
    branch.every(
      (issue) => issue.path.length === 0 && (issue.code === "invalid_type" || issue.code === "invalid_value"),
    )
  );
}

function expectation(issue: Issue): string {
  if (issue.message.startsWith("expected ")) return issue.message;
  switch (issue.code) {
    case "invalid_union":
      if ("options" in issue && issue.options !== undefined && issue.options.length > 0) {
        return `expected one of ${issue.options.map((option) => JSON.stringify(option)).join(", ")}`;
      }
      return "expected a valid value";
    case "invalid_value":
      return `expected one of ${issue.values.map((value) => JSON.stringify(value)).join(", ")}`;
    case "invalid_type":
      return `expected ${issue.expected}`;
    case "too_small":
      return `expected ${issue.origin} ${issue.inclusive ? ">=" : ">"} ${String(issue.minimum)}`;
    case "too_big":
      return `expected ${issue.origin} ${issue.inclusive ? "<=" : "<"} ${String(issue.maximum)}`;
    default:
      return `expected a valid value (${issue.message})`;
  }
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let current = input;
  for (const segment of path) {
    if (typeof segment === "number" && Array.isArray(current)) current = current[segment];
    else if (typeof segment === "string" && isPlainTable(current)) current = current[segment];
    else return undefined;
  }
  return current;
}

/** What the user gave, short and without secrets: `"high" (string)`, `a table with keys token, read_only`. */
export function describeValue(value: unknown, path: readonly PropertyKey[] = []): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (typeof value === "string") {
    if (SECRET_FIELDS.has(path[path.length - 1] ?? "")) return `a string of ${value.length} characters`;
    const shown = value.length > MAX_SHOWN_CHARS ? `${value.slice(0, MAX_SHOWN_CHARS)}…` : value;
    return `${JSON.stringify(shown)} (string)`;
  }
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") {
    return `${String(value)} (${typeof value})`;
  }
  if (value instanceof Date) return `the date ${value.toISOString()}`;
  if (Array.isArray(value))
    return value.length === 0 ? "an empty array" : `an array of ${value.length} items`;
  if (isPlainTable(value)) {
    const keys = Object.keys(value);
    if (keys.length === 0) return "an empty table";
    const shown = hasVerbatimKeys(path) ? keys : keys.map(camelToSnake);
    return `a table with keys ${shown.join(", ")}`;
  }
  return `a value of type ${typeof value}`;
}
