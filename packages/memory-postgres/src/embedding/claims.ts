import type { EmbedJob } from "@claw/memory-api";
import type { VectorRows } from "@claw/memory-core";
import { bumpChangesSql } from "../db/change-stamp.js";
import { readMeta } from "../db/meta.js";
import { type Queryable, storageError } from "../db/pool.js";
import type { SqlNames } from "../db/sql-names.js";
import { vectorsParam } from "../db/vector-params.js";
import {
  cacheInsertParams,
  cacheInsertSql,
  type EmbeddingCache,
  type PendingCacheEntries,
} from "./embedding-cache.js";
import { SWEEP_AFTER } from "./fingerprint.js";

/** A row claimed for embedding, with the content it holds now (which may be newer than a job's). */
export type ClaimedRow = EmbedJob;

/**
 * Claims rows that still lack a vector for `leaseMs` (database clock), skipping rows another
 * server is claiming or writing (FOR UPDATE SKIP LOCKED) and rows under a live lease: two servers
 * never embed the same row at once. A lease that runs out (a server died) frees the row again.
 * `rids` = these rows only (deferred jobs); null = any after `afterRid`, in rid order (backfill).
 */
export async function claimRows(
  db: Queryable,
  names: SqlNames,
  rids: readonly number[] | null,
  limit: number,
  leaseMs: number,
  afterRid = 0,
): Promise<ClaimedRow[]> {
  const which = rids === null ? "AND rid > $3" : "AND rid = ANY($3::bigint[])";
  const { rows } = await db.query<ClaimedRow>(
    `UPDATE ${names.memories} m SET embed_claimed_until = now() + make_interval(secs => $2 / 1000.0)
     WHERE m.rid IN (
       SELECT rid FROM ${names.memories}
       WHERE embedding IS NULL AND (embed_claimed_until IS NULL OR embed_claimed_until < now()) ${which}
       ORDER BY rid LIMIT $1 FOR UPDATE SKIP LOCKED)
     RETURNING m.rid, m.namespace, m.content_hash AS hash, m.content`,
    [limit, leaseMs, rids === null ? afterRid : rids],
  );
  return rows.sort((a, b) => a.rid - b.rid);
}

/**
 * Writes vectors under the content-hash guard: a row whose content changed since it was claimed
 * keeps waiting for its newer job instead of receiving a vector of text it no longer holds. The
 * same statement moves the change stamp and writes the embedding cache's new entries, if any.
 * Returns how many rows received a vector.
 */
export async function writeVectors(
  db: Queryable,
  names: SqlNames,
  vectors: ReadonlyArray<{ rid: number; hash: string; vector: Float32Array }>,
  cacheEntries: PendingCacheEntries | null = null,
): Promise<number> {
  if (vectors.length === 0) return 0;
  const cached = cacheEntries === null ? "" : `, cached AS (${cacheInsertSql(names, 6, cacheEntries)})`;
  const { flat, first, last } = vectorsParam(vectors.map((v) => v.vector));
  const result = await db.query(
    `WITH bump AS (${bumpChangesSql(names)})${cached}
     UPDATE ${names.memories} m
     SET embedding = ($5::real[])[v.first:v.last], embedding_hash = v.hash, embed_claimed_until = NULL
     FROM unnest($1::bigint[], $2::text[], $3::int4[], $4::int4[]) AS v(rid, hash, first, last)
     WHERE m.rid = v.rid AND m.content_hash = v.hash`,
    [
      vectors.map((v) => v.rid),
      vectors.map((v) => v.hash),
      first,
      last,
      flat,
      ...(cacheEntries === null ? [] : cacheInsertParams(cacheEntries)),
    ],
  );
  return result.rowCount ?? 0;
}

/** Gives up claims after a failure, so another server or a backfill can take the rows at once.
 *  Only rows whose content is still the claimed one: those nobody else can have claimed since. */
export async function releaseClaims(
  db: Queryable,
  names: SqlNames,
  claimed: readonly ClaimedRow[],
): Promise<void> {
  if (claimed.length === 0) return;
  await db.query(
    `UPDATE ${names.memories} m SET embed_claimed_until = NULL
     FROM unnest($1::bigint[], $2::text[]) AS c(rid, hash)
     WHERE m.rid = c.rid AND m.content_hash = c.hash AND m.embedding IS NULL`,
    [claimed.map((c) => c.rid), claimed.map((c) => c.hash)],
  );
}

/**
 * The rows of a PostgreSQL store as core's embedding worker sees them: claims under a lease of
 * `leaseMs`, so that servers sharing the store never embed one row at once. Database failures
 * surface as STORAGE.
 */
export function postgresVectorRows(
  db: Queryable,
  names: SqlNames,
  leaseMs: number,
  cache: EmbeddingCache | null = null,
): VectorRows {
  const storage = async <T>(fn: () => Promise<T>): Promise<T> => {
    try {
      return await fn();
    } catch (error) {
      throw storageError(error);
    }
  };
  return {
    claim: (rids, limit, afterRid) => storage(() => claimRows(db, names, rids, limit, leaseMs, afterRid)),
    write: (jobs, vectors) =>
      storage(async () => {
        const rows = jobs.flatMap((job) => {
          const vector = vectors.get(job.hash);
          return vector === undefined ? [] : [{ rid: job.rid, hash: job.hash, vector }];
        });
        const cacheEntries = rows.length === 0 ? null : (cache?.takePending() ?? null);
        try {
          return await writeVectors(db, names, rows, cacheEntries);
        } catch (error) {
          if (cacheEntries !== null) cache?.restore(cacheEntries);
          throw error;
        }
      }),
    release: (claimed) => storage(() => releaseClaims(db, names, claimed)),
    countMissing: () =>
      storage(async () => {
        const { rows } = await db.query<{ n: number }>(
          `SELECT count(*) AS n FROM ${names.memories} WHERE embedding IS NULL`,
        );
        return Number(rows[0]?.n ?? 0);
      }),
    sweepAfter: () => storage(async () => Number((await readMeta(db, names, SWEEP_AFTER)) ?? 0)),
  };
}
