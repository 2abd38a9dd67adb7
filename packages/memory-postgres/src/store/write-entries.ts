import { contentHash, type EntryWrite } from "@claw/memory-core";
import { bumpChangesSql } from "../db/change-stamp.js";
import { paramColumn, paramRows, singleRow } from "../db/param-rows.js";
import type { Queryable } from "../db/pool.js";
import type { SqlNames } from "../db/sql-names.js";
import { vectorParam } from "../db/vector-params.js";
import { vectorText } from "../db/vector-text.js";
import { cacheInsertParams, cacheInsertSql, type PendingCacheEntries } from "../embedding/embedding-cache.js";
import { entryColumns, type PgEntryRow } from "./entry-row.js";
import { type FtsSource, ftsContextText, ftsIndexText, ftsTexts, ftsVectorSql } from "./fts-vector.js";
import { refreshTurnContexts, type TurnPosition } from "./session-context.js";
import type { TurnAround } from "./turn-around.js";
import { UPSERT_SOURCE_COLUMNS, upsertSql } from "./upsert-sql.js";
import { byRef, writeChunks } from "./write-chunks.js";

/** One entry as written: the row (as get() reads it) and whether it still needs a vector. */
export interface WrittenRow {
  row: PgEntryRow;
  hash: string;
  missingVector: boolean;
  /** Left without a vector and claimed by the write for this process's worker (pre-claims.ts). */
  preClaimed: boolean;
}

export interface WriteOptions {
  names: SqlNames;
  textSearchConfig: string;
  newId: () => string;
  /**
   * Each upsert also moves the change stamp (db/change-stamp.ts), in the same statement: a write
   * outside a transaction is then one round trip.
   */
  bumpChanges?: boolean;
  /** New embedding cache entries the first upsert inserts too: only outside a transaction (embedding-cache.ts). */
  cacheEntries?: PendingCacheEntries | null;
  /**
   * For a single session turn, its place read just before (turn-around.ts): the upsert indexes it
   * with the turn before it and re-indexes the turn after it, with no refresh statements after.
   */
  turn?: TurnAround | null;
  /** The embedding lease (ms) a row left without a vector is claimed for; absent: not claimed. */
  claimLease?: number | null;
}

/** Rows per INSERT: big enough to amortise the round trip, small enough for the bind message. */
const CHUNK_ROWS = 500;

/**
 * Upserts validated entries by (namespace, key), in order, as store() and import() do, with bulk
 * INSERT … SELECT FROM unnest(…) ON CONFLICT statements. A chunk never holds the same (namespace,
 * key) or caller id twice, so later writes see earlier ones exactly as one-by-one writes would.
 * Must run inside a transaction when more than one statement may run (import()).
 */
export async function writeEntries(
  db: Queryable,
  writes: readonly EntryWrite[],
  options: WriteOptions,
): Promise<WrittenRow[]> {
  const written: WrittenRow[] = [];
  let cacheEntries = options.cacheEntries ?? null;
  for (const chunk of writeChunks(writes, CHUNK_ROWS)) {
    const ready = await withFreeIds(db, chunk, options);
    const upserted = await upsert(db, ready, options, cacheEntries);
    cacheEntries = null;
    const rows = upserted.map(({ previousTurn: _, ...w }) => w);
    written.push(...rows);
    // A single turn whose place was read first: the upsert wrote both contexts.
    if (options.turn != null && chunk.length === 1) continue;
    // Session turns: their own context (the turn before) and that of the turn after them.
    const turns = rows.flatMap(({ row }) =>
      row.session_id === null
        ? []
        : [{ namespace: row.namespace, sessionId: row.session_id, createdAt: row.created_at, rid: row.rid }],
    );
    await refreshTurnContexts(db, options.names, options.textSearchConfig, turns, true);
    // A turn that moved (another session, another time, or out of its session): what followed it
    // in its old place now follows another turn.
    const before = upserted.flatMap((w) => (w.previousTurn === null ? [] : [w.previousTurn]));
    await refreshTurnContexts(db, options.names, options.textSearchConfig, before, false);
  }
  return written;
}

/** A caller's id that another entry already holds is replaced by a fresh one (as in core). */
async function withFreeIds(db: Queryable, chunk: EntryWrite[], options: WriteOptions): Promise<EntryWrite[]> {
  const given = chunk.filter((w) => w.idFromCaller).map((w) => w.id);
  if (given.length === 0) return chunk;
  const { rows } = await db.query<{ id: string }>(
    `SELECT id FROM ${options.names.memories} WHERE id = ANY($1::text[])`,
    [given],
  );
  if (rows.length === 0) return chunk;
  const taken = new Set(rows.map((r) => r.id));
  return chunk.map((w) => (w.idFromCaller && taken.has(w.id) ? { ...w, id: options.newId() } : w));
}

/** A written row and, when it overwrote a session turn, where that turn sat. */
interface UpsertedRow extends WrittenRow {
  previousTurn: TurnPosition | null;
}

async function upsert(
  db: Queryable,
  chunk: EntryWrite[],
  options: WriteOptions,
  cacheEntries: PendingCacheEntries | null,
): Promise<UpsertedRow[]> {
  const { names } = options;
  // Sorted so that two servers upserting overlapping keys lock rows in the same order.
  const rows = [...chunk].sort(byRef);
  const hashes = rows.map((w) => contentHash(w.content));
  const turn = rows.length === 1 ? (options.turn ?? null) : null;
  const skip = rows[0]?.skipExisting === true;
  const keepCreatedAt = rows[0]?.keepCreatedAt === true;
  const single = singleRow(rows);
  // One row goes as scalars (db/param-rows.ts): its statement can keep its generic plan.
  const column = <T>(value: (w: EntryWrite, i: number) => T) => paramColumn(rows, value);
  const params = [
    column((w) => w.id),
    column((w) => w.key),
    column((w) => w.content),
    column((w) => w.category),
    column((w) => w.namespace),
    column((w) => w.sessionId),
    column((w) => w.importance),
    column((w) => w.supersededBy),
    column((w) => w.createdAt),
    column((w) => w.updatedAt),
    column((_, i) => hashes[i]),
    column((w) => ftsIndexText(w.key)),
    column((w) => ftsIndexText(w.content)),
    column((w) => w.source?.path ?? null),
    column((w) => w.source?.startLine ?? null),
    column((w) => w.source?.endLine ?? null),
    // One row's vector goes in binary (db/vector-params.ts); many, as text in a text[] to unnest.
    column((w) =>
      w.embedding === null ? null : single ? vectorParam(w.embedding) : vectorText(w.embedding),
    ),
    options.textSearchConfig,
    column((w) => ftsContextText(turn?.at ?? w.createdAt, turn?.previous ?? null, w.context)),
    column((w) => w.context),
    column((w) => w.metadata),
    column((w) => w.expiresAt),
    column((w) => w.change ?? "create"),
    column((w) => w.actor),
    ...(cacheEntries === null ? [] : cacheInsertParams(cacheEntries)),
  ];
  const successor = turn?.successor ?? null;
  const next =
    successor === null || rows.length !== 1 ? "" : `, next AS (${successorSql(names, params.length + 1)})`;
  if (next !== "" && successor !== null) params.push(...successorParams(successor, rows[0]?.content ?? ""));
  const claimLease = options.claimLease ?? null;
  if (claimLease !== null) params.push(claimLease);
  // `bump` moves the change stamp with the write; `cached` writes the embedding cache's new
  // entries (the vectors of these rows, usually).
  const bump = options.bumpChanges === true ? `, bump AS (${bumpChangesSql(names)})` : "";
  const cached = cacheEntries === null ? "" : `, cached AS (${cacheInsertSql(names, 25, cacheEntries)})`;
  const result = await db.query<
    PgEntryRow & {
      content_hash: string;
      missing: boolean;
      old_session_id: string | null;
      old_created_at: string | null;
      pre_claimed: boolean;
    }
  >(
    upsertSql({
      names,
      ctes: `${bump}${cached}${next}`,
      keys: `${paramRows(["$5::text", "$2::text"], rows)} AS w(namespace, key)`,
      source: `${paramRows(single ? ONE_ROW_SOURCE_PARAMS : SOURCE_PARAMS, rows)} AS v(${UPSERT_SOURCE_COLUMNS})`,
      config: "$18",
      id: "v.id",
      skip,
      keepCreatedAt,
      orderBy: "",
      claimLease: claimLease === null ? null : `$${params.length}`,
      returning: `${entryColumns(false)}, m.content_hash, m.embedding IS NULL AS missing`,
    }),
    params,
  );
  return result.rows.map(
    ({ content_hash, missing, old_session_id, old_created_at, pre_claimed, ...row }) => ({
      row,
      hash: content_hash,
      missingVector: missing,
      preClaimed: pre_claimed,
      previousTurn:
        old_session_id === null || old_created_at === null
          ? null
          : { namespace: row.namespace, sessionId: old_session_id, createdAt: old_created_at, rid: row.rid },
    }),
  );
}

/** The parameters UPSERT_SOURCE_COLUMNS are read from, in order ($18 is the text search configuration). */
const SOURCE_PARAMS = [
  "$1::text",
  "$2::text",
  "$3::text",
  "$4::text",
  "$5::text",
  "$6::text",
  "$7::float8",
  "$8::text",
  "$9::timestamptz",
  "$10::timestamptz",
  "$11::text",
  "$12::text",
  "$13::text",
  "$14::text",
  "$15::int",
  "$16::int",
  "$17::text",
  "$19::text",
  "$20::text",
  "$21::text",
  "$22::timestamptz",
  "$23::text",
  "$24::text",
];

/** SOURCE_PARAMS of a single row: its vector is a float4 array in binary. */
const ONE_ROW_SOURCE_PARAMS = SOURCE_PARAMS.map((param) => (param === "$17::text" ? "$17::real[]" : param));

/**
 * Re-indexes a single turn's successor with the turn's content as the one before it, in the
 * upsert's statement (a CTE). `$18` is the upsert's text search configuration.
 */
function successorSql(names: SqlNames, first: number): string {
  const p = (i: number) => `$${first + i}`;
  return `UPDATE ${names.memories} SET fts = ${ftsVectorSql(`${p(1)}::text`, `${p(2)}::text`, "$18", `${p(3)}::text`)}
    WHERE rid = ${p(0)}::bigint`;
}

function successorParams(successor: Omit<FtsSource, "previous">, previous: string): unknown[] {
  return [successor.rid, ...ftsTexts({ ...successor, previous })];
}
