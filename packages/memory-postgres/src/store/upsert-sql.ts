import type { SqlNames } from "../db/sql-names.js";
import { ftsVectorSql } from "./fts-vector.js";

/**
 * The columns of the rows an upsert reads (`v`), from unnest(…) of parameters (write-entries.ts)
 * or from the staging table a COPY filled (bulk-write.ts).
 */
export const UPSERT_SOURCE_COLUMNS = `id, key, content, category, namespace, session_id, importance, superseded_by,
  created_at, updated_at, content_hash, fts_key, fts_text, source_path, source_start, source_end, embedding,
  fts_context, context, metadata, expires_at, change_action, change_actor`;

export interface UpsertSqlOptions {
  names: SqlNames;
  /** More CTEs after `old`, each with its leading comma (", bump AS (…)"). */
  ctes: string;
  /** The rows to write: a FROM item named `v` with UPSERT_SOURCE_COLUMNS. */
  source: string;
  /** The (namespace, key) of those rows: a FROM item named `w`. */
  keys: string;
  /** The text search configuration, a parameter (`$18`). */
  config: string;
  /** The id a new row takes: an expression over `v`. */
  id: string;
  /** An existing (namespace, key) is left as it is. */
  skip: boolean;
  /** An update keeps the row's created_at. */
  keepCreatedAt: boolean;
  /** Rows ordered so that two servers writing overlapping keys lock them in one order (or ""). */
  orderBy: string;
  /**
   * A parameter holding the embedding lease in ms (`$26`), or null: a row left without a vector is
   * then claimed for this process's worker by this very statement (embedding/pre-claims.ts).
   */
  claimLease: string | null;
  /** What comes back of each written row `m`; `old_session_id`, `old_created_at` and `pre_claimed` are added. */
  returning: string;
}

/**
 * The upsert of entries by (namespace, key): the row's full text (fts-vector.ts), its version (a
 * forgotten key continues its history), the vector kept when the content did not change. `old`
 * reads the rows as they were before this statement (one snapshot): where each overwritten session
 * turn sat, without a round trip of its own.
 */
export function upsertSql(o: UpsertSqlOptions): string {
  const { names } = o;
  const sameHash = "m.content_hash = EXCLUDED.content_hash";
  const onConflict = o.skip
    ? "DO NOTHING"
    : `DO UPDATE SET content = EXCLUDED.content, category = EXCLUDED.category,
        session_id = EXCLUDED.session_id, importance = EXCLUDED.importance,
        superseded_by = EXCLUDED.superseded_by,
        created_at = ${o.keepCreatedAt ? "m.created_at" : "EXCLUDED.created_at"},
        updated_at = EXCLUDED.updated_at, content_hash = EXCLUDED.content_hash,
        fts = EXCLUDED.fts, source_path = EXCLUDED.source_path, context = EXCLUDED.context,
        metadata = EXCLUDED.metadata, expires_at = EXCLUDED.expires_at,
        change_action = EXCLUDED.change_action, change_actor = EXCLUDED.change_actor,
        source_start = EXCLUDED.source_start, source_end = EXCLUDED.source_end,
        embedding = CASE WHEN EXCLUDED.embedding IS NULL AND ${sameHash} THEN m.embedding ELSE EXCLUDED.embedding END,
        embedding_hash = CASE WHEN EXCLUDED.embedding IS NULL AND ${sameHash} THEN m.embedding_hash
          ELSE EXCLUDED.embedding_hash END,
        embed_claimed_until = CASE WHEN ${sameHash} THEN m.embed_claimed_until
          WHEN EXCLUDED.embedding IS NULL THEN EXCLUDED.embed_claimed_until END`;
  // The lease a row without a vector takes, the same value for every row of the statement (now()).
  const lease =
    o.claimLease === null ? null : `now() + make_interval(secs => ${o.claimLease}::float8 / 1000.0)`;
  return `WITH old AS (
       SELECT o.rid, o.session_id, o.created_at
       FROM ${names.memories} o JOIN ${o.keys} ON o.namespace = w.namespace AND o.key = w.key
       WHERE o.session_id IS NOT NULL
     )${o.ctes}
     INSERT INTO ${names.memories} AS m (id, key, content, category, namespace, session_id, importance,
       superseded_by, created_at, updated_at, content_hash, fts, source_path, source_start,
       source_end, embedding, embedding_hash, context, metadata, expires_at, change_action, change_actor,
       version, embed_claimed_until)
     SELECT ${o.id}, v.key, v.content, v.category, v.namespace, v.session_id, v.importance, v.superseded_by,
       v.created_at, v.updated_at, v.content_hash, ${ftsVectorSql("v.fts_key", "v.fts_text", o.config, "v.fts_context")},
       v.source_path, v.source_start, v.source_end, v.embedding::real[],
       CASE WHEN v.embedding IS NULL THEN NULL ELSE v.content_hash END, v.context, v.metadata::jsonb,
       v.expires_at, v.change_action, v.change_actor,
       -- A key that was forgotten continues its history: its next version follows the tombstone.
       coalesce((SELECT max(h.version) FROM ${names.versions} h
         WHERE h.namespace = v.namespace AND h.key = v.key), 0) + 1,
       ${lease === null ? "NULL::timestamptz" : `CASE WHEN v.embedding IS NULL THEN ${lease} END`}
     FROM ${o.source} ${o.orderBy}
     ON CONFLICT (namespace, key) ${onConflict}
     RETURNING ${o.returning},
       (SELECT old.session_id FROM old WHERE old.rid = m.rid) AS old_session_id,
       (SELECT old.created_at FROM old WHERE old.rid = m.rid) AS old_created_at,
       ${lease === null ? "false" : `m.embedding IS NULL AND m.embed_claimed_until IS NOT DISTINCT FROM ${lease}`} AS pre_claimed`;
}
