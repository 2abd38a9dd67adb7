// Many new embedding cache entries at once (an import's vectors) by binary COPY: the vectors go as
// 4-byte floats into a staging table of the transaction, then one INSERT takes them in key order.

import { BinaryCopyWriter } from "../db/copy-binary.js";
import { copyIn } from "../db/copy-in.js";
import { inTransaction, type Pool } from "../db/pool.js";
import type { SqlNames } from "../db/sql-names.js";
import type { PendingCacheEntries } from "./embedding-cache.js";

const STAGING = "pg_temp.claw_cache_staging";

/**
 * A writer of cache entries by `COPY … FROM STDIN (FORMAT binary)`, for a server that takes it
 * (db/copy-in.ts: acceptsCopyIn). The entries are inserted in the order given (the cache's key
 * order, as every other write of them), in one statement: its only locks are those rows, taken in
 * that order, so it cannot deadlock with another server's writes of the same entries.
 */
export function cacheCopyWriter(
  pool: Pool,
  names: SqlNames,
): (entries: PendingCacheEntries) => Promise<void> {
  return (entries) =>
    inTransaction(pool, async (tx, client) => {
      await tx.query(
        `CREATE TEMP TABLE claw_cache_staging (ord int4, provider text, model text, content_hash text, embedding real[])
         ON COMMIT DROP`,
      );
      const copy = new BinaryCopyWriter();
      entries.rows.forEach((row, ord) => {
        copy.row([
          { type: "int4", value: ord },
          { type: "text", value: row.provider },
          { type: "text", value: row.model },
          { type: "text", value: row.hash },
          { type: "float4[]", value: row.vector },
        ]);
      });
      await copyIn(client, `COPY ${STAGING} FROM STDIN (FORMAT binary)`, copy.end());
      await tx.query(
        `INSERT INTO ${names.cache} AS c (provider, model, content_hash, embedding, created_at, accessed_at)
         SELECT provider, model, content_hash, embedding, $1::timestamptz, $1::timestamptz
         FROM ${STAGING} ORDER BY ord
         ON CONFLICT (provider, model, content_hash)
         DO UPDATE SET embedding = EXCLUDED.embedding, accessed_at = EXCLUDED.accessed_at`,
        [entries.at],
      );
    });
}
