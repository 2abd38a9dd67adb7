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

/** Figures, charts and the table of one quality run. */
export function buildQualityOutput(runs: readonly EngineRun[], stats: DatasetStats, k: number): SuiteOutput {
  const summaries = runs.map((run) => ({ run, groups: aggregateByCategory(run.scored) }));
  return {
    figures: summaries.flatMap(figuresOf),
    charts: [
      chart(summaries, "locomo-recall-at-10", "LoCoMo turn-level recall@10", "recall@10"),
      chart(summaries, "locomo-mrr", "LoCoMo turn-level MRR", "mrr"),
    ],
    tables: [table(summaries, stats, k)],
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

const round = (value: number) => Math.round(value * 1000) / 1000;

function table(summaries: readonly Summary[], stats: DatasetStats, k: number): TableSpec {
  return {
    title: "LoCoMo turn-level retrieval (categories 1–4 pooled)",
    columns: ["engine", "recall@1", "recall@5", "recall@10", "MRR", "nDCG@10", "cat5 recall@10"],
    rows: summaries.map((s) => [
      s.run.engine,
      ...METRIC_NAMES.map((metric) => round(meanOf(s, POOLED_GROUP, metric))),
      round(meanOf(s, "cat5", "recall@10")),
    ]),
    note:
      `${stats.conversations} conversations, ${stats.turns} turns, ${stats.questions} questions ` +
      `(${stats.unscorable} without a known evidence turn left out, ${stats.droppedEvidence} unknown ` +
      `evidence ids dropped); one document per turn ("speaker: text [image: caption]"), ` +
      `the question as the query, top ${k}; means over questions.`,
  };
}
