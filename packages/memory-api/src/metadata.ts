/** A JSON value as metadata holds it: no undefined, no functions, only finite numbers. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** The caller's own fields on an entry (MemoryEntry.metadata): a JSON object. */
export type Metadata = { [key: string]: JsonValue };

/** A value a `where` condition compares with. */
export type WhereScalar = string | number | boolean | null;

/** The operators of one field's condition; several in one object must all hold. */
export interface WhereOperators {
  $eq?: WhereScalar;
  /** Also true when the field is missing. */
  $ne?: WhereScalar;
  $in?: WhereScalar[];
  /** Also true when the field is missing. */
  $nin?: WhereScalar[];
  /** Numbers with numbers, strings with strings (code-point order, so RFC 3339 times compare). */
  $gt?: number | string;
  $gte?: number | string;
  $lt?: number | string;
  $lte?: number | string;
  $exists?: boolean;
}

/**
 * A filter on metadata: `{ project: "alpha", "owner.team": { $in: ["a", "b"] }, priority: { $gte: 2 } }`.
 * Keys are fields (nested ones by dotted path), all conditions must hold; a plain value means
 * `$eq`. Comparisons are typed: 1 is not "1", true is not 1.
 */
export type WhereFilter = { [field: string]: WhereScalar | WhereOperators };

/** One validated condition of a `where` filter, as backends receive it (ANDed with the others). */
export type WhereCondition =
  | { op: "eq" | "ne"; path: string[]; value: WhereScalar }
  | { op: "in" | "nin"; path: string[]; values: WhereScalar[] }
  | { op: "gt" | "gte" | "lt" | "lte"; path: string[]; value: number | string }
  | { op: "exists"; path: string[]; value: boolean };
