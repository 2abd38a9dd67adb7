/**
 * A FROM item of rows taken from parameters: each parameter an array, read by unnest(), or, for a
 * single row, each a scalar, read by VALUES. `params` are the parameters with their element types
 * (`$1::text`).
 *
 * PostgreSQL plans a named prepared statement anew on each call until its generic plan (made
 * without the parameters' values) costs no more than the custom plans it made so far. unnest() of
 * a parameter is costed at 100 rows in the generic plan and at its length in a custom one, so a
 * one-row write by unnest() is planned on every call; by VALUES its generic plan costs the same and
 * is kept after the fifth call. A store() that embeds first, at 100k entries on a loopback server
 * (2026-11-30, 1,000 stores a run, two runs each): p50 2.4–2.95 → 1.57–1.65 ms, the upsert's own
 * round trip 1.7–2.0 → 1.0–1.1 ms.
 */
export function paramRows(params: readonly string[], rows: readonly unknown[]): string {
  return singleRow(rows)
    ? `(VALUES (${params.join(", ")}))`
    : `unnest(${params.map((p) => `${p}[]`).join(", ")})`;
}

/** A parameter's value for paramRows: the single row's own value, or one value per row. */
export function paramColumn<R, T>(rows: readonly R[], value: (row: R, index: number) => T): T | T[] {
  return singleRow(rows) ? value(rows[0] as R, 0) : rows.map(value);
}

/** Whether `rows` go as scalars: the one rule paramRows, paramColumn and `= $n` lookups share. */
export function singleRow(rows: readonly unknown[]): boolean {
  return rows.length === 1;
}
