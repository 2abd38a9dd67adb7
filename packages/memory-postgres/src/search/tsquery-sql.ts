import { isCjkChar } from "@claw/memory-core";
import type { SqlParams } from "../store/sql-params.js";
import { termExpression, tsQueryText } from "./tsquery.js";

/**
 * A plain word: letters and digits of no CJK script. Its tsquery is the set of lexemes the index
 * holds for it ('simple': the word; the language configuration: its stem), each once.
 */
const PLAIN = /^[\p{L}\p{N}]+$/u;

function isPlain(term: string): boolean {
  return PLAIN.test(term) && !Array.from(term).some(isCjkChar);
}

/**
 * The SQL of a tsquery OR-ing `terms` (ftsTermsOf's) as the index holds them, each under 'simple'
 * and under the language configuration `config`. Plain words become the distinct lexemes of both
 * (a word that is its own stem counted once: `to_tsquery('simple', q) || to_tsquery(config, q)`
 * named it twice, and ts_rank_cd costs per query node: 2.6 against 6.2 ms over 495 matches);
 * other terms (CJK phrases, prefixes, words with an apostrophe) keep to_tsquery's parse. Every
 * term is a bound parameter. Null when `terms` is empty.
 */
export function tsQuerySql(
  terms: readonly string[],
  config: string,
  params: SqlParams,
  prefix = false,
): string | null {
  const plain = prefix ? [] : terms.filter(isPlain);
  const other = prefix ? terms : terms.filter((term) => !isPlain(term));
  const parts: string[] = [];
  const cfg = `${params.add(config)}::regconfig`;
  if (plain.length > 0) {
    const words = params.add(plain.join(" "));
    parts.push(
      `coalesce((SELECT string_agg(DISTINCT quote_literal(l), ' | ') FROM unnest(tsvector_to_array(to_tsvector('simple', ${words}) || to_tsvector(${cfg}, ${words}))) l), '')::tsquery`,
    );
  }
  if (other.length > 0) {
    const text = params.add(tsQueryText(other, prefix));
    parts.push(`to_tsquery('simple', ${text}) || to_tsquery(${cfg}, ${text})`);
  }
  return parts.length === 0 ? null : parts.join(" || ");
}

/** The SQL of a tsquery matching entries that hold every one of `terms` (each in either form). */
export function allTermsSql(terms: readonly string[], config: string, params: SqlParams): string | null {
  if (terms.length === 0) return null;
  const cfg = `${params.add(config)}::regconfig`;
  return terms
    .map((term) => {
      const text = params.add(termExpression(term, false));
      return `(to_tsquery('simple', ${text}) || to_tsquery(${cfg}, ${text}))`;
    })
    .join(" && ");
}

/**
 * The share of the query's inverse document frequency an entry's tsvector (`column`) holds:
 * Σ weights of the terms it matches ÷ Σ weights, each term in either form (as allTermsSql's).
 * `columns` are the per-term tsqueries, to compute once (a MATERIALIZED CTE's select list,
 * named `q.t0`, `q.t1`, …); `share` the expression over `column` and `q`. Null for fewer than two
 * terms, whose share would rank nothing.
 */
export function idfShareSql(
  terms: readonly string[],
  weights: readonly number[],
  config: string,
  params: SqlParams,
  column: string,
): { columns: string; share: string } | null {
  const total = weights.reduce((sum, w) => sum + w, 0);
  if (terms.length < 2 || !(total > 0)) return null;
  const cfg = `${params.add(config)}::regconfig`;
  const columns = terms
    .map((term, i) => {
      const text = params.add(termExpression(term, false));
      return `(to_tsquery('simple', ${text}) || to_tsquery(${cfg}, ${text})) AS t${i}`;
    })
    .join(", ");
  const share = terms
    .map(
      (_, i) =>
        `CASE WHEN ${column} @@ q.t${i} THEN ${params.add((weights[i] ?? 0) / total)}::float8 ELSE 0 END`,
    )
    .join(" + ");
  return { columns, share: `(${share})` };
}
