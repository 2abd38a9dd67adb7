import type { WhereFilter } from "@claw/memory-api";

/**
 * The meaning of `where`, one table for every backend: these rows of metadata (key, metadata or
 * null), and for each filter the keys it keeps, sorted in code-point order. A backend's compiler of
 * conditions passes when it keeps exactly these.
 */
export const WHERE_ROWS: ReadonlyArray<readonly [string, Record<string, unknown> | null]> = [
  ["alpha", { project: "alpha", priority: 3, done: false, owner: { team: "core" }, tags: ["a"] }],
  ["beta", { project: "beta", priority: 1, done: true, owner: { team: "web" } }],
  ["one-as-text", { project: "alpha", priority: "3" }],
  ["null-project", { project: null }],
  ["no-metadata", null],
  ["empty", {}],
  ["accented", { project: "Äpfel" }],
];

const ALL = WHERE_ROWS.map(([key]) => key).sort();

export const WHERE_CASES: ReadonlyArray<{ name: string; where: WhereFilter; keys: readonly string[] }> = [
  // Equality is typed: a JSON 3 is not "3", false is not 0, null is not missing.
  { name: "string", where: { project: "alpha" }, keys: ["alpha", "one-as-text"] },
  { name: "number", where: { priority: 3 }, keys: ["alpha"] },
  { name: "number as text", where: { priority: "3" }, keys: ["one-as-text"] },
  { name: "false", where: { done: false }, keys: ["alpha"] },
  { name: "0 is not false", where: { done: 0 }, keys: [] },
  { name: "null", where: { project: null }, keys: ["null-project"] },
  { name: "dotted path", where: { "owner.team": "web" }, keys: ["beta"] },
  // $ne and $nin also match entries without the field; the others never do.
  {
    name: "$ne",
    where: { project: { $ne: "alpha" } },
    keys: ["accented", "beta", "empty", "no-metadata", "null-project"],
  },
  {
    name: "$nin",
    where: { project: { $nin: ["alpha", null, "Äpfel"] } },
    keys: ["beta", "empty", "no-metadata"],
  },
  { name: "$in", where: { project: { $in: ["beta", null] } }, keys: ["beta", "null-project"] },
  { name: "empty $in", where: { project: { $in: [] } }, keys: [] },
  { name: "empty $nin", where: { project: { $nin: [] } }, keys: ALL },
  // Ranges compare numbers with numbers and strings with strings, in code-point order.
  { name: "$gt number", where: { priority: { $gt: 1 } }, keys: ["alpha"] },
  { name: "range", where: { priority: { $gte: 1, $lt: 3 } }, keys: ["beta"] },
  { name: "$gte string", where: { priority: { $gte: "3" } }, keys: ["one-as-text"] },
  { name: "$gt string", where: { project: { $gt: "alpha" } }, keys: ["accented", "beta"] },
  { name: "code points", where: { project: { $gt: "z" } }, keys: ["accented"] },
  // $exists tells a present field (null included) from a missing one; fields AND together.
  {
    name: "$exists",
    where: { project: { $exists: true } },
    keys: ["accented", "alpha", "beta", "null-project", "one-as-text"],
  },
  { name: "not $exists", where: { project: { $exists: false } }, keys: ["empty", "no-metadata"] },
  { name: "AND", where: { project: "alpha", done: { $exists: true } }, keys: ["alpha"] },
  { name: "array field exists", where: { tags: { $exists: true } }, keys: ["alpha"] },
];
