/**
 * Turn-level retrieval metrics: a question is answered by its evidence turns, and a search is
 * judged by where those turns land in its ranking. Relevance is binary (a turn is evidence or not).
 */

/** Rank cut-off of MRR and nDCG. */
export const METRIC_DEPTH = 10;

export interface QuestionMetrics {
  "recall@1": number;
  "recall@5": number;
  "recall@10": number;
  "recall@20": number;
  "recall@40": number;
  mrr: number;
  "ndcg@10": number;
}

export type MetricName = keyof QuestionMetrics;

export const METRIC_NAMES: readonly MetricName[] = [
  "recall@1",
  "recall@5",
  "recall@10",
  "recall@20",
  "recall@40",
  "mrr",
  "ndcg@10",
];

/** Results a search must return for every metric: the deepest recall cut-off. */
export const SEARCH_DEPTH = 40;

/** The ranking without repeats: an engine returning a turn twice must not count it twice. */
function distinct(ranked: readonly string[]): string[] {
  return [...new Set(ranked)];
}

/** Share of the evidence turns found in the first `k` results; 0 when there is no evidence. */
export function recallAt(ranked: readonly string[], evidence: ReadonlySet<string>, k: number): number {
  if (evidence.size === 0) return 0;
  const found = distinct(ranked)
    .slice(0, k)
    .filter((id) => evidence.has(id)).length;
  return found / evidence.size;
}

/** 1 / rank of the first evidence turn within the first `depth` results, else 0. */
export function reciprocalRank(
  ranked: readonly string[],
  evidence: ReadonlySet<string>,
  depth = METRIC_DEPTH,
): number {
  const index = distinct(ranked)
    .slice(0, depth)
    .findIndex((id) => evidence.has(id));
  return index < 0 ? 0 : 1 / (index + 1);
}

/** nDCG at `depth` with binary gains; the ideal ranking puts every evidence turn first. */
export function ndcgAt(
  ranked: readonly string[],
  evidence: ReadonlySet<string>,
  depth = METRIC_DEPTH,
): number {
  if (evidence.size === 0) return 0;
  const discount = (index: number) => 1 / Math.log2(index + 2);
  let dcg = 0;
  distinct(ranked)
    .slice(0, depth)
    .forEach((id, i) => {
      if (evidence.has(id)) dcg += discount(i);
    });
  let ideal = 0;
  for (let i = 0; i < Math.min(evidence.size, depth); i++) ideal += discount(i);
  return dcg / ideal;
}

/** Every metric of one question. */
export function questionMetrics(ranked: readonly string[], evidence: readonly string[]): QuestionMetrics {
  const relevant = new Set(evidence);
  return {
    "recall@1": recallAt(ranked, relevant, 1),
    "recall@5": recallAt(ranked, relevant, 5),
    "recall@10": recallAt(ranked, relevant, 10),
    "recall@20": recallAt(ranked, relevant, 20),
    "recall@40": recallAt(ranked, relevant, 40),
    mrr: reciprocalRank(ranked, relevant),
    "ndcg@10": ndcgAt(ranked, relevant),
  };
}

export interface ScoredQuestion {
  /** The question's group: LoCoMo's "cat1" … "cat5", BEAM's question type. */
  category: string;
  metrics: QuestionMetrics;
}

export interface GroupSummary {
  /** Questions in the group. */
  count: number;
  /** Mean of each metric over the group's questions (macro over questions); 0 for an empty group. */
  means: QuestionMetrics;
}

/** How a dataset's questions are grouped: its categories, and which of them are pooled. */
export interface QuestionGrouping {
  /** The pooled group's name, e.g. "cat1-4". */
  pooled: string;
  /** Every category reported, in report order (empty ones count zero questions). */
  groups: readonly string[];
  inPool(category: string): boolean;
}

/**
 * Means per category (each of `grouping.groups`, and any other category that occurs) and over
 * the pooled categories by question, so large categories weigh more, as in LoCoMo papers.
 */
export function aggregateByCategory(
  scored: readonly ScoredQuestion[],
  grouping: QuestionGrouping,
): Map<string, GroupSummary> {
  const groups = new Map<string, QuestionMetrics[]>();
  const add = (group: string, metrics: QuestionMetrics) => {
    const list = groups.get(group) ?? [];
    list.push(metrics);
    groups.set(group, list);
  };
  groups.set(grouping.pooled, []);
  for (const group of grouping.groups) groups.set(group, []);
  for (const { category, metrics } of scored) {
    add(category, metrics);
    if (grouping.inPool(category)) add(grouping.pooled, metrics);
  }
  return new Map([...groups].map(([group, list]) => [group, { count: list.length, means: meanOf(list) }]));
}

function meanOf(list: readonly QuestionMetrics[]): QuestionMetrics {
  const means = {} as QuestionMetrics;
  for (const name of METRIC_NAMES) {
    means[name] = list.length === 0 ? 0 : list.reduce((s, m) => s + m[name], 0) / list.length;
  }
  return means;
}
