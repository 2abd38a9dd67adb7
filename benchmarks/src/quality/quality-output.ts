import { percentile } from "../stats.js";
import { type ChartSpec, type Figure, figure, type SuiteOutput, type TableSpec } from "../suite.js";
import type { EngineRun } from "./evaluate-engines.js";
import type { QualityDataset } from "./quality-datasets.js";
import {
  aggregateByCategory,
  type GroupSummary,
  METRIC_NAMES,
  type MetricName,
} from "./retrieval-metrics.js";

/** Groups with figures: the pooled one first, then each category (LoCoMo's cat5 is adversarial). */
export function figureGroups(dataset: QualityDataset): string[] {
  return [dataset.pooled, ...dataset.groups];
}

/** Chart x axis and table columns: the pooled categories, then their pool (then the rest). */
function chartGroups(dataset: QualityDataset): string[] {
  return [...dataset.groups.filter((g) => dataset.inPool(g)), dataset.pooled];
}

/** The categories reported apart from the pool (LoCoMo's adversarial cat5). */
function apartGroups(dataset: QualityDataset): string[] {
  return dataset.groups.filter((g) => !dataset.inPool(g));
}

export interface DatasetStats {
  conversations: number;
  turns: number;
  /** Questions scored (those with at least one known evidence turn). */
  questions: number;
  /** Questions left out because none of their evidence names a turn. */
  unscorable: number;
  /** Evidence ids that named no turn. */
  droppedEvidence: number;
}

interface Summary {
  dataset: QualityDataset;
  run: EngineRun;
  groups: Map<string, GroupSummary>;
}

/** Recall cut-offs of the depth chart and the first table. */
const RECALL_DEPTHS = [5, 10, 20, 40] as const;

/** Figures, charts and tables of one quality run; `depth` is the number of results asked for. */
export function buildQualityOutput(
  dataset: QualityDataset,
  runs: readonly EngineRun[],
  stats: DatasetStats,
  depth: number,
): SuiteOutput {
  const summaries = runs.map((run) => ({ dataset, run, groups: aggregateByCategory(run.scored, dataset) }));
  const level = `${dataset.title} ${dataset.unit}-level`;
  return {
    figures: [...summaries.flatMap(figuresOf), ...ratioFigures(dataset, summaries)],
    charts: [
      chart(summaries, `${dataset.id}-recall-at-10`, `${level} recall@10`, "recall@10"),
      chart(summaries, `${dataset.id}-mrr`, `${level} MRR`, "mrr"),
      depthChart(dataset, summaries),
    ],
    tables: [
      { ...pooledTable(dataset, summaries, stats, depth), docs: `quality-${dataset.id}` },
      categoryTable(dataset, summaries),
    ],
  };
}

function meanOf(summary: Summary, group: string, metric: MetricName): number {
  return summary.groups.get(group)?.means[metric] ?? 0;
}

function figuresOf(summary: Summary): Figure[] {
  const prefix = `quality.${summary.dataset.id}.${summary.run.engine}`;
  const figures: Figure[] = [];
  for (const group of figureGroups(summary.dataset)) {
    for (const metric of METRIC_NAMES) {
      figures.push(figure(`${prefix}.${metric}.${group}`, meanOf(summary, group, metric), "ratio", "higher"));
    }
  }
  figures.push(figure(`${prefix}.questions`, summary.run.scored.length, "count", "higher"));
  figures.push(figure(`${prefix}.search_p50_ms`, percentile(summary.run.searchMs, 50), "ms", "lower"));
  return figures;
}

/** The engine every ratio is taken against: plain FTS5, measured in the same run. */
export const RATIO_PEER = "fts5-baseline";

/**
 * Each claw engine's pooled recall@10 and MRR as a ratio to plain FTS5's in the same run:
 * `quality.<dataset>.<engine>.vs_fts5.<metric>.<pooled>` (what the CI gate holds for both datasets).
 */
function ratioFigures(dataset: QualityDataset, summaries: readonly Summary[]): Figure[] {
  const peer = summaries.find((s) => s.run.engine === RATIO_PEER);
  if (peer === undefined) return [];
  const figures: Figure[] = [];
  for (const s of summaries.filter((x) => x.run.engine.startsWith("claw-"))) {
    for (const metric of ["recall@10", "mrr"] as const) {
      const base = meanOf(peer, dataset.pooled, metric);
      const id = `quality.${dataset.id}.${s.run.engine}.vs_fts5.${metric}.${dataset.pooled}`;
      figures.push(figure(id, base > 0 ? meanOf(s, dataset.pooled, metric) / base : 0, "ratio", "higher"));
    }
  }
  return figures;
}

function chart(summaries: readonly Summary[], id: string, title: string, metric: MetricName): ChartSpec {
  return {
    id,
    title,
    kind: "bar",
    xLabel: "question category",
    yLabel: metric,
    series: summaries.map((s) => ({
      name: s.run.engine,
      points: chartGroups(s.dataset).map((group) => ({ x: group, y: meanOf(s, group, metric) })),
    })),
  };
}

/** Pooled recall at each depth: how much more a caller finds by asking for more results. */
function depthChart(dataset: QualityDataset, summaries: readonly Summary[]): ChartSpec {
  return {
    id: `${dataset.id}-recall-by-depth`,
    title: `${dataset.title} ${dataset.unit}-level recall by depth (${dataset.pooled} pooled)`,
    kind: "line",
    xLabel: "results asked for",
    yLabel: "recall",
    series: summaries.map((s) => ({
      name: s.run.engine,
      points: RECALL_DEPTHS.map((d) => ({ x: d, y: meanOf(s, dataset.pooled, `recall@${d}`) })),
    })),
  };
}

const round = (value: number) => Math.round(value * 1000) / 1000;

const POOLED_COLUMNS: ReadonlyArray<[string, MetricName]> = [
  ["recall@1", "recall@1"],
  ...RECALL_DEPTHS.map((d): [string, MetricName] => [`recall@${d}`, `recall@${d}`]),
  ["MRR", "mrr"],
  ["nDCG@10", "ndcg@10"],
];

function pooledTable(
  dataset: QualityDataset,
  summaries: readonly Summary[],
  stats: DatasetStats,
  depth: number,
): TableSpec {
  const apart = apartGroups(dataset);
  return {
    title: `${dataset.title} ${dataset.unit}-level retrieval (${dataset.pooled} pooled)`,
    columns: ["engine", ...POOLED_COLUMNS.map(([label]) => label), ...apart.map((g) => `${g} recall@10`)],
    rows: summaries.map((s) => [
      s.run.engine,
      ...POOLED_COLUMNS.map(([, metric]) => round(meanOf(s, dataset.pooled, metric))),
      ...apart.map((g) => round(meanOf(s, g, "recall@10"))),
    ]),
    note:
      `${stats.conversations} conversations, ${stats.turns} ${dataset.unit}s, ${stats.questions} questions ` +
      `(${stats.unscorable} without a known evidence ${dataset.unit} left out, ${stats.droppedEvidence} unknown ` +
      `evidence ids dropped); one document per ${dataset.unit} (${dataset.document}), ` +
      `the question as the query, top ${depth} asked, MRR and nDCG cut at 10; means over questions.`,
  };
}

/** recall@10 per category; the header counts each category's questions (the same for every engine). */
function categoryTable(dataset: QualityDataset, summaries: readonly Summary[]): TableSpec {
  const groups = [...chartGroups(dataset), ...apartGroups(dataset)];
  const counts = summaries[0]?.groups;
  return {
    title: `${dataset.title} ${dataset.unit}-level recall@10 per question category`,
    columns: ["engine", ...groups.map((g) => `${g} (${counts?.get(g)?.count ?? 0})`)],
    rows: summaries.map((s) => [s.run.engine, ...groups.map((g) => round(meanOf(s, g, "recall@10")))]),
    note: dataset.categoryNote,
  };
}
