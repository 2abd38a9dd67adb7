import { toFtsIndexText } from "@claw/memory-core";

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
 * The SQL expression of an entry's tsvector from its indexed key and text (ftsIndexText): both
 * under 'simple' — every word as written, CJK bigrams adjacent for phrase queries — plus the text
 * under the language-aware configuration `config` (a regconfig parameter), whose stems let
 * "running" find "runs".
 */
export function ftsVectorSql(key: string, text: string, config: string): string {
  return `(to_tsvector('simple', ${key}) || to_tsvector('simple', ${text}) || to_tsvector(${config}::regconfig, ${text}))`;
}
