// An import's writes on a server that takes COPY: every row streamed in PostgreSQL's binary COPY
// format into a staging table of the transaction, then upserted from there by one statement per
// chunk (write-entries.ts does the same from parameters, 500 rows a statement). The vectors travel
// as 4-byte floats, not as decimal text to format and parse; only what the embedding jobs need
// comes back.

import type { BulkWriteResult, EmbedJob } from "@claw/memory-api";
import { contentHash, type EntryWrite } from "@claw/memory-core";
import type pg from "pg";
import { bumpChangesSql } from "../db/change-stamp.js";
import { BinaryCopyWriter, type CopyField } from "../db/copy-binary.js";
import { copyIn } from "../db/copy-in.js";
import type { Queryable } from "../db/pool.js";
import type { SqlNames } from "../db/sql-names.js";
import { ftsContextText, ftsIndexText } from "./fts-vector.js";
import { refreshTurnContexts, type TurnPosition } from "./session-context.js";
import { upsertSql } from "./upsert-sql.js";
import { byRef, writeChunks } from "./write-chunks.js";

/** The staging table, the transaction's own (dropped at its end). */
const STAGING = "pg_temp.claw_bulk_staging";
/** Its columns: the write order, a fresh id for a caller's id that is taken, then the upsert's source columns. */
const STAGING_COLUMNS = `ord int4, fresh_id text, id_from_caller bool, id text, key text, content text,
  category text, namespace text, session_id text, importance float8, superseded_by text,
  created_at timestamptz, updated_at timestamptz, content_hash text, fts_key text, fts_text text,
  source_path text, source_start int4, source_end int4, embedding real[], fts_context text, context text,
  metadata text, expires_at timestamptz, change_action text, change_actor text`;
/** Most rows one upsert takes from the staging table (and this process holds made at once). */
const CHUNK_ROWS = 5_000;

/** Rows `from` (inclusive) to `to` (exclusive) of the staging table, upserted by one statement. */
interface StagedChunk {
  from: number;
  to: number;
  skip: boolean;
  keepCreatedAt: boolean;
}

/** An import's writes as COPY data, and the chunks to upsert them by. */
export interface StagedWrites {
  buffers: Buffer[];
  chunks: StagedChunk[];
  /** How many writes in all. */
  rows: number;
}

/**
 * Makes and encodes every write (the iteration throws INVALID_INPUT at a bad one, before anything
 * is sent). A chunk never holds the same (namespace, key) or caller id twice, so a later write
 * sees an earlier one exactly as one-by-one writes would; within a chunk, rows go in (namespace,
 * key) order, so that two servers writing overlapping keys lock rows in one order.
 */
export function stageWrites(writes: Iterable<EntryWrite>, newId: () => string): StagedWrites {
  const copy = new BinaryCopyWriter();
  const chunks: StagedChunk[] = [];
  let ord = 0;
  for (const chunk of writeChunks(writes, CHUNK_ROWS)) {
    chunk.sort(byRef);
    const first = chunk[0] as EntryWrite;
    chunks.push({
      from: ord,
      to: ord + chunk.length,
      skip: first.skipExisting === true,
      keepCreatedAt: first.keepCreatedAt,
    });
    for (const write of chunk) copy.row(stagedRow(write, ord++, newId));
  }
  return { buffers: copy.end(), chunks, rows: ord };
}

function stagedRow(w: EntryWrite, ord: number, newId: () => string): CopyField[] {
  const text = (value: string | null) => ({ type: "text", value }) as const;
  return [
    { type: "int4", value: ord },
    text(w.idFromCaller ? newId() : null),
    { type: "bool", value: w.idFromCaller },
    text(w.id),
    text(w.key),
    text(w.content),
    text(w.category),
    text(w.namespace),
    text(w.sessionId),
    { type: "float8", value: w.importance },
    text(w.supersededBy),
    { type: "timestamptz", value: w.createdAt },
    { type: "timestamptz", value: w.updatedAt },
    text(contentHash(w.content)),
    text(ftsIndexText(w.key)),
    text(ftsIndexText(w.content)),
    text(w.source?.path ?? null),
    { type: "int4", value: w.source?.startLine ?? null },
    { type: "int4", value: w.source?.endLine ?? null },
    { type: "float4[]", value: w.embedding },
    text(ftsContextText(w.createdAt, null, w.context)),
    text(w.context),
    text(w.metadata),
    { type: "timestamptz", value: w.expiresAt },
    text(w.change ?? "create"),
    text(w.actor),
  ];
}

export interface StagedWriteOptions {
  names: SqlNames;
  textSearchConfig: string;
  /** The embedding lease (ms) a row left without a vector is claimed for; null: not claimed. */
  claimLease: number | null;
}

/** What writeStaged wrote: the count, the embedding jobs, and which of them the write claimed. */
export interface StagedWriteResult extends BulkWriteResult {
  preClaimed: EmbedJob[];
}

/**
 * Writes staged writes inside the caller's transaction on `client` (typed as `db`): the COPY,
 * then one upsert per chunk, each also moving the change stamp, then the session turns' contexts
 * as write-entries.ts keeps them. Returns how many rows were written and the jobs of those that
 * still need a vector.
 */
export async function writeStaged(
  client: pg.ClientBase,
  db: Queryable,
  staged: StagedWrites,
  options: StagedWriteOptions,
): Promise<StagedWriteResult> {
  const { names, textSearchConfig, claimLease } = options;
  await db.query(`CREATE TEMP TABLE claw_bulk_staging (${STAGING_COLUMNS}) ON COMMIT DROP`);
  await copyIn(client, `COPY ${STAGING} FROM STDIN (FORMAT binary)`, staged.buffers);
  let written = 0;
  const jobs: EmbedJob[] = [];
  const preClaimed: EmbedJob[] = [];
  for (const chunk of staged.chunks) {
    const { rows } = await db.query<{
      rid: number;
      namespace: string;
      session_id: string | null;
      created_at: string;
      content_hash: string;
      missing_content: string | null;
      old_session_id: string | null;
      old_created_at: string | null;
      pre_claimed: boolean;
    }>(
      upsertSql({
        names,
        ctes: `, bump AS (${bumpChangesSql(names)})`,
        keys: `(SELECT namespace, key FROM ${STAGING} WHERE ord >= $1 AND ord < $2) AS w`,
        source: `(SELECT * FROM ${STAGING} WHERE ord >= $1 AND ord < $2) AS v`,
        config: "$3",
        // A caller's id that another entry already holds gives way to a fresh one (as in core).
        id: `CASE WHEN v.id_from_caller AND EXISTS (SELECT 1 FROM ${names.memories} x WHERE x.id = v.id)
          THEN v.fresh_id ELSE v.id END`,
        skip: chunk.skip,
        keepCreatedAt: chunk.keepCreatedAt,
        orderBy: "ORDER BY v.ord",
        claimLease: claimLease === null ? null : "$4",
        returning: `m.rid, m.namespace, m.session_id, m.created_at, m.content_hash,
          CASE WHEN m.embedding IS NULL THEN m.content END AS missing_content`,
      }),
      claimLease === null
        ? [chunk.from, chunk.to, textSearchConfig]
        : [chunk.from, chunk.to, textSearchConfig, claimLease],
    );
    written += rows.length;
    const turns: TurnPosition[] = [];
    const moved: TurnPosition[] = [];
    for (const row of rows) {
      if (row.missing_content !== null) {
        const job = {
          rid: row.rid,
          namespace: row.namespace,
          hash: row.content_hash,
          content: row.missing_content,
        };
        jobs.push(job);
        if (row.pre_claimed) preClaimed.push(job);
      }
      if (row.session_id !== null) {
        turns.push({
          namespace: row.namespace,
          sessionId: row.session_id,
          createdAt: row.created_at,
          rid: row.rid,
        });
      }
      if (row.old_session_id !== null && row.old_created_at !== null) {
        moved.push({
          namespace: row.namespace,
          sessionId: row.old_session_id,
          createdAt: row.old_created_at,
          rid: row.rid,
        });
      }
    }
    await refreshTurnContexts(db, names, textSearchConfig, turns, true);
    await refreshTurnContexts(db, names, textSearchConfig, moved, false);
  }
  return { written, jobs, preClaimed };
}
