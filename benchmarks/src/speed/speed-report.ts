/**
 * The speed suite's charts (p50 latency against corpus size, per engine) and one table per size of
 * the default corpus's figures; distribution-report.ts shows the other corpora.
 */

import type { ChartSeries, ChartSpec, TableSpec } from "../suite.js";
import type { SizeResult } from "./measure-size.js";
import { ORAMA_SIMILARITY } from "./orama-engine.js";
import { CORPUS_PREFIXES } from "./size-figures.js";
import { RATIO_BLOCKS } from "./time-queries.js";

interface SeriesSpec {
  name: string;
  /** The figure id after `speed.<size>.`. */
  id: string;
}

const CHARTS: ReadonlyArray<{ id: string; what: string; series: SeriesSpec[] }> = [
  {
    id: "latency-vs-size-vector",
    what: "vector top-10",
    series: [
      { name: "claw vector", id: "claw.vector.p50_ms" },
      { name: "fullscan", id: "fullscan.vector.p50_ms" },
      { name: "js-scan", id: "js-scan.vector.p50_ms" },
      { name: "orama vector", id: "orama.vector.p50_ms" },
    ],
  },
  {
    id: "latency-vs-size-hybrid",
    what: "hybrid top-10",
    series: [
      { name: "claw hybrid", id: "claw.hybrid.p50_ms" },
      { name: "orama hybrid", id: "orama.hybrid.p50_ms" },
    ],
  },
  {
    id: "latency-vs-size-keyword",
    what: "keyword top-10",
    series: [
      { name: "claw keyword", id: "claw.keyword.p50_ms" },
      { name: "orama keyword", id: "orama.keyword.p50_ms" },
      { name: "plain FTS5", id: "plain-fts.keyword.p50_ms" },
      { name: "claw keyword, common words", id: "common.claw.keyword.p50_ms" },
      { name: "plain FTS5, common words", id: "common.plain-fts.keyword.p50_ms" },
    ],
  },
];

function figureValue(result: SizeResult, id: string): number | undefined {
  return result.figures.find((f) => f.id === `speed.${result.plan.label}.${id}`)?.value;
}

/** "768 dims" or "768 dims (1m: 384)" when the sizes do not share one width. */
function dimensionsLabel(results: readonly SizeResult[]): string {
  const first = results[0]?.plan.dimensions;
  const others = results.filter((r) => r.plan.dimensions !== first);
  const exceptions = others.map((r) => `${r.plan.label}: ${r.plan.dimensions}`).join(", ");
  return others.length === 0 ? `${first} dims` : `${first} dims (${exceptions})`;
}

export function speedCharts(results: readonly SizeResult[]): ChartSpec[] {
  return CHARTS.map((chart) => {
    const series: ChartSeries[] = chart.series
      .map((s) => ({
        name: s.name,
        points: results.flatMap((r) => {
          const y = figureValue(r, s.id);
          return y === undefined ? [] : [{ x: r.plan.size, y }];
        }),
      }))
      .filter((s) => s.points.length > 0);
    return {
      id: chart.id,
      title: `p50 ${chart.what} latency vs corpus size, ${dimensionsLabel(results)}`,
      kind: "line",
      xLabel: "entries",
      yLabel: "p50 latency (ms)",
      logX: true,
      series,
    };
  });
}

/** Three significant digits: enough to compare runs, short enough to read. */
export function round(value: number): number {
  if (!Number.isFinite(value) || value === 0) return value;
  const digits = Math.max(0, 2 - Math.floor(Math.log10(Math.abs(value))));
  return Number(value.toFixed(Math.min(digits, 6)));
}

/** Whether a figure id (after `speed.<size>.`) belongs to one of the extra corpus distributions. */
function isExtraCorpus(id: string): boolean {
  return CORPUS_PREFIXES.some((prefix) => prefix !== "" && id.startsWith(prefix));
}

/** Every figure of the default corpus at one size (the others are in the distribution table). */
export function speedTable(result: SizeResult): TableSpec {
  const { plan } = result;
  const prefix = `speed.${plan.label}.`;
  const notes = [
    `${plan.size.toLocaleString("en")} entries × ${plan.dimensions} dims, seed ${plan.seed}`,
    `RSS includes the suite's own copy of the vectors (${round((plan.size * plan.dimensions * 4) / 2 ** 20)} MB)`,
    `${plan.queries} keyword and ${plan.vectorQueries} vector/hybrid queries after ${plan.warmup} warm-up, top 10`,
    `claw vector, claw hybrid and the full scan timed in ${RATIO_BLOCKS} alternating blocks of the same queries, each claw mode also under the two metadata filters (keyword: unfiltered and filtered in blocks of their own)`,
    `claw hot cache off, hybrid without keyword early return; ${plan.stores} store() with deferred vectors`,
    "plain FTS5: the same entries and query terms in a bare FTS5 table",
    `Orama similarity ≥ ${ORAMA_SIMILARITY}`,
    ...result.notes,
    `${result.seconds.toFixed(1)} s`,
  ];
  return {
    title: `Speed at ${plan.label}`,
    columns: ["figure", "value", "unit", "better"],
    rows: result.figures
      .map((f) => ({ ...f, id: f.id.slice(prefix.length) }))
      .filter((f) => !isExtraCorpus(f.id))
      .map((f) => [f.id, round(f.value), f.unit, f.better]),
    note: `${notes.join("; ")}.`,
  };
}
