/**
 * The speed suite's view across corpus distributions: one table per size (the default corpus and
 * the extra ones side by side, p50s and their ratios to the plain peers) and a bar chart of vector
 * recall@10 per distribution and size, the figure that differs most between them.
 */

import type { ChartSpec, TableSpec } from "../suite.js";
import type { SizeResult } from "./measure-size.js";
import { round } from "./speed-report.js";
import { RATIO_BLOCKS } from "./time-queries.js";

interface CorpusRow {
  name: string;
  /** The figure-id prefix after `speed.<size>.`. */
  prefix: string;
}

const ROWS: readonly CorpusRow[] = [
  { name: "default: stopwords text, rare queries, clustered vectors", prefix: "" },
  { name: "common text, typed queries", prefix: "common." },
  { name: "anisotropic vectors (common text, typed queries)", prefix: "anisotropic." },
  { name: "sparse vectors (common text, typed queries)", prefix: "sparse." },
];

/** Columns after the corpus name: header and the figure id after the prefix. */
const COLUMNS: ReadonlyArray<[header: string, id: string]> = [
  ["claw keyword p50 (ms)", "claw.keyword.p50_ms"],
  ["plain FTS5 p50 (ms)", "plain-fts.keyword.p50_ms"],
  ["claw / plain FTS5", "ratio.claw_keyword_vs_plain_fts.p50"],
  ["claw vector p50 (ms)", "claw.vector.p50_ms"],
  ["claw vector p99 (ms)", "claw.vector.p99_ms"],
  ["vector recall@10", "claw.vector.recall@10"],
  ["full scan p50 (ms)", "fullscan.vector.p50_ms"],
  ["claw / full scan", "ratio.claw_vector_vs_fullscan.p50"],
  ["claw RSS (MB)", "claw.rss_mb"],
];

const RECALL_SERIES: ReadonlyArray<[name: string, prefix: string]> = [
  ["clustered", ""],
  ["anisotropic", "anisotropic."],
  ["sparse", "sparse."],
];

function figureValue(result: SizeResult, id: string): number | undefined {
  return result.figures.find((f) => f.id === `speed.${result.plan.label}.${id}`)?.value;
}

/** Three significant digits, or "–" for a figure this size did not measure. */
function cell(value: number | undefined): string | number {
  return value === undefined ? "–" : round(value);
}

export function distributionTable(result: SizeResult): TableSpec {
  const { plan } = result;
  const notes = [
    `${plan.size.toLocaleString("en")} entries × ${plan.dimensions} dims, top 10, hot cache off`,
    "stopwords: function words at the top Zipf ranks (dropped as stop words); common: content words from rank 1",
    "rare queries: 2–5 words mostly of one entry; typed: 3–5 words, 1–2 of one entry, the rest from the whole Zipf law",
    "plain FTS5: the store's tokenizer, the same terms OR-ed, ORDER BY rank",
    "anisotropic: mean of per-word Gaussian vectors plus a shared offset (unrelated entries at cosine ≈ 0.6); " +
      "sparse: feature hashing of the words, sublinear tf; queries embedded from their own words",
    `claw and the full scan timed in ${RATIO_BLOCKS} alternating blocks of the same queries`,
    "recall of anisotropic and sparse counts a hit tied with the exact 10th (within 1e-6) as found",
    "common keyword store without vectors",
    ...result.corpusNotes,
  ];
  return {
    title: `Speed at ${plan.label} by corpus distribution`,
    columns: ["corpus", ...COLUMNS.map(([header]) => header)],
    rows: ROWS.map((row) => [
      row.name,
      ...COLUMNS.map(([, id]) => cell(figureValue(result, `${row.prefix}${id}`))),
    ]),
    note: `${notes.join("; ")}.`,
  };
}

/** Bars of vector recall@10: one group per size, one bar per vector distribution. */
export function recallChart(results: readonly SizeResult[]): ChartSpec {
  return {
    id: "vector-recall-by-distribution",
    title: "claw vector recall@10 against exact search, per vector distribution",
    kind: "bar",
    xLabel: "entries",
    yLabel: "recall@10",
    series: RECALL_SERIES.map(([name, prefix]) => ({
      name,
      points: results.flatMap((r) => {
        const y = figureValue(r, `${prefix}claw.vector.recall@10`);
        return y === undefined ? [] : [{ x: r.plan.label, y }];
      }),
    })).filter((s) => s.points.length > 0),
  };
}
