import type { Queryable } from "./pool.js";
import type { SqlNames } from "./sql-names.js";

/** Reads and writes `claw_meta` (schema version, embedding fingerprint, text search config). */
export async function readMeta(db: Queryable, names: SqlNames, key: string): Promise<string | undefined> {
  const { rows } = await db.query<{ value: string }>(`SELECT value FROM ${names.meta} WHERE key = $1`, [key]);
  return rows[0]?.value;
}

export async function writeMeta(
  db: Queryable,
  names: SqlNames,
  entries: Record<string, string>,
): Promise<void> {
  const keys = Object.keys(entries);
  await db.query(
    `INSERT INTO ${names.meta} (key, value) SELECT * FROM unnest($1::text[], $2::text[])
     ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`,
    [keys, keys.map((k) => entries[k])],
  );
}
