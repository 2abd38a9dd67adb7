import { percentile } from "../stats.js";
import { type ChartSpec, type Figure, figure, type SuiteOutput, type TableSpec } from "../suite.js";
import type { EngineRun } from "./evaluate-engines.js";
import {
  aggregateByCategory,
  type GroupSummary,
  METRIC_NAMES,
  type MetricName,
  POOLED_GROUP,
} from "./retrieval-metrics.js";

/** Groups with figures: the pooled one first, then each category; cat5 is adversarial. */
export const FIGURE_GROUPS = [POOLED_GROUP, "cat1", "cat2", "cat3", "cat4", "cat5"] as const;

/** Chart x axis: the answerable categories, then their pool. */
const CHART_GROUPS = ["cat1", "cat2", "cat3", "cat4", POOLED_GROUP] as const;

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
  run: EngineRun;
  groups: Map<string, GroupSummary>;
}

/** Recall cut-offs of the depth chart and the first table. */
const RECALL_DEPTHS = [5, 10, 20, 40] as const;

/** Figures, charts and tables of one quality run; `depth` is the number of results asked for. */
export function buildQualityOutput(
  runs: readonly EngineRun[],
  stats: DatasetStats,
  depth: number,
): SuiteOutput {
  const summaries = runs.map((run) => ({ run, groups: aggregateByCategory(run.scored) }));
  return {
    figures: summaries.flatMap(figuresOf),
    charts: [
      chart(summaries, "locomo-recall-at-10", "LoCoMo turn-level recall@10", "recall@10"),
      chart(summaries, "locomo-mrr", "LoCoMo turn-level MRR", "mrr"),
      depthChart(summaries),
    ],
    tables: [pooledTable(summaries, stats, depth), categoryTable(summaries)],
  };
}

function meanOf(summary: Summary, group: string, metric: MetricName): number {
  return summary.groups.get(group)?.means[metric] ?? 0;
}

function figuresOf(summary: Summary): Figure[] {
  const prefix = `quality.locomo.${summary.run.engine}`;
  const figures: Figure[] = [];
  for (const group of FIGURE_GROUPS) {
    for (const metric of METRIC_NAMES) {
      figures.push(figure(`${prefix}.${metric}.${group}`, meanOf(summary, group, metric), "ratio", "higher"));
    }
  }
  figures.push(figure(`${prefix}.questions`, summary.run.scored.length, "count", "higher"));
  figures.push(figure(`${prefix}.search_p50_ms`, percentile(summary.run.searchMs, 50), "ms", "lower"));
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
      points: CHART_GROUPS.map((group) => ({ x: group, y: meanOf(s, group, metric) })),
    })),
  };
}

/** Pooled recall at each depth: how much more a caller finds by asking for more results. */
function depthChart(summaries: readonly Summary[]): ChartSpec {
  return {
    id: "locomo-recall-by-depth",
    title: "LoCoMo turn-level recall by depth (categories 1–4 pooled)",
    kind: "line",
    xLabel: "results asked for",
    yLabel: "recall",
    series: summaries.map((s) => ({
      name: s.run.engine,
      points: RECALL_DEPTHS.map((d) => ({ x: d, y: meanOf(s, POOLED_GROUP, `recall@${d}`) })),
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

function pooledTable(summaries: readonly Summary[], stats: DatasetStats, depth: number): TableSpec {
  return {
    title: "LoCoMo turn-level retrieval (categories 1–4 pooled)",
    columns: ["engine", ...POOLED_COLUMNS.map(([label]) => label), "cat5 recall@10"],
    rows: summaries.map((s) => [
      s.run.engine,
      ...POOLED_COLUMNS.map(([, metric]) => round(meanOf(s, POOLED_GROUP, metric))),
      round(meanOf(s, "cat5", "recall@10")),
    ]),
    note:
      `${stats.conversations} conversations, ${stats.turns} turns, ${stats.questions} questions ` +
      `(${stats.unscorable} without a known evidence turn left out, ${stats.droppedEvidence} unknown ` +
      `evidence ids dropped); one document per turn ("speaker: text [image: caption]"), ` +
      `the question as the query, top ${depth} asked, MRR and nDCG cut at 10; means over questions.`,
  };
}

/** recall@10 per category; the header counts each category's questions (the same for every engine). */
function categoryTable(summaries: readonly Summary[]): TableSpec {
  const groups = [...CHART_GROUPS, "cat5"];
  const counts = summaries[0]?.groups;
  return {
    title: "LoCoMo turn-level recall@10 per question category",
    columns: ["engine", ...groups.map((g) => `${g} (${counts?.get(g)?.count ?? 0})`)],
    rows: summaries.map((s) => [s.run.engine, ...groups.map((g) => round(meanOf(s, g, "recall@10")))]),
    note: "Categories as numbered in the dataset (5 is adversarial); scored questions in brackets.",
  };
}
