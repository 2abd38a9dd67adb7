import { entryContext, toFtsIndexText } from "@claw/memory-core";
import type { Queryable } from "../db/pool.js";
import type { SqlNames } from "../db/sql-names.js";

/**
 * Most characters of an entry's text that go into its tsvector: PostgreSQL refuses a tsvector over
 * 1 MB, and content may be 1 MiB. Text past this point is still found by the LIKE fallback.
 */
export const FTS_MAX_CHARS = 200_000;

/**
 * The text an entry is indexed by: CJK runs as bigrams (core's toFtsIndexText, which queries
 * match), NFKC and lower-cased here rather than by the database, whose case folding of non-ASCII
 * letters depends on its locale (under "C" it folds ASCII only). Query terms are folded the same way.
 */
export function ftsIndexText(text: string): string {
  const indexed = toFtsIndexText(text) ?? text;
  return indexed.slice(0, FTS_MAX_CHARS).normalize("NFKC").toLowerCase();
}

/**
 * The version of what the tsvector holds; a store indexed with an older one is rebuilt on open.
 * 3: the entry's context (its date and, for a session turn, the turn before it) at weight D.
 */
export const FTS_CONTENT_VERSION = "3";

/** ts_rank_cd's weights {D, C, B, A}: context (D) counts half as much as key and text. */
export const FTS_RANK_WEIGHTS = "{0.5,1,1,1}";

/**
 * The context an entry is indexed with (core's entryContext: its date forms and the previous turn
 * of its session, when given), folded like text.
 */
export function ftsContextText(
  createdAt: string | Date,
  previousTurn: string | null = null,
  extra: string | null = null,
): string {
  const date = createdAt instanceof Date ? createdAt : new Date(createdAt);
  const iso = Number.isNaN(date.getTime()) ? String(createdAt) : date.toISOString();
  const previous = previousTurn === null ? null : ftsIndexText(previousTurn);
  return entryContext(iso, previous, extra === null ? null : ftsIndexText(extra))
    .normalize("NFKC")
    .toLowerCase();
}

/**
 * The SQL expression of an entry's tsvector from its indexed key and text (ftsIndexText): both
 * under 'simple' — every word as written, CJK bigrams adjacent for phrase queries — plus the text
 * under the language-aware configuration `config` (a regconfig parameter), whose stems let
 * "running" find "runs", plus its context (ftsContextText) at weight D.
 */
export function ftsVectorSql(key: string, text: string, config: string, context: string): string {
  return `(to_tsvector('simple', ${key}) || to_tsvector('simple', ${text}) || to_tsvector(${config}::regconfig, ${text}) || setweight(to_tsvector('simple', coalesce(${context}, '')), 'D'))`;
}

/** What an entry's tsvector is made of, as read back from its row. */
export interface FtsSource {
  rid: number;
  key: string;
  content: string;
  created_at: string | Date;
  /** The content of the turn before it in its session, if any. */
  previous: string | null;
  /** MemoryEntry.context. */
  context: string | null;
}

/** The three texts an entry's tsvector is built from: ftsVectorSql's key, text and context. */
export function ftsTexts(source: Omit<FtsSource, "rid">): [key: string, text: string, context: string] {
  return [
    ftsIndexText(source.key),
    ftsIndexText(source.content),
    ftsContextText(source.created_at, source.previous, source.context),
  ];
}

/** Writes the tsvectors of `rows` in one statement. */
export async function writeFtsVectors(
  db: Queryable,
  names: SqlNames,
  textSearchConfig: string,
  rows: readonly FtsSource[],
): Promise<void> {
  if (rows.length === 0) return;
  const texts = rows.map(ftsTexts);
  await db.query(
    `UPDATE ${names.memories} m SET fts = ${ftsVectorSql("v.fts_key", "v.fts_text", "$4", "v.fts_context")}
     FROM unnest($1::bigint[], $2::text[], $3::text[], $5::text[]) AS v(rid, fts_key, fts_text, fts_context)
     WHERE m.rid = v.rid`,
    [
      rows.map((r) => r.rid),
      texts.map(([key]) => key),
      texts.map(([, text]) => text),
      textSearchConfig,
      texts.map(([, , context]) => context),
    ],
  );
}
