import type { Queryable } from "../db/pool.js";
import type { SqlNames } from "../db/sql-names.js";

/** Sets every vector aside (reindex re-embeds them all). */
export async function clearVectors(db: Queryable, names: SqlNames): Promise<void> {
  await db.query(
    `UPDATE ${names.memories} SET embedding = NULL, embedding_hash = NULL, embed_claimed_until = NULL`,
  );
}
