/**
 * The figures of one corpus size: ids under `speed.<size>.`, latency percentiles, and the p50
 * ratios to peers measured in the same run (the only speed figures the CI gate trusts on noisy
 * machines).
 */
import type { LatencySummary } from "../stats.js";
import { type Figure, figure } from "../suite.js";

export interface SizeFigures {
  readonly figures: Figure[];
  /** Adds `speed.<size>.<id>`. */
  add(id: string, value: number, unit: string, better: Figure["better"]): void;
  /** p50 and p95 of `summary` under `<id>.p50_ms` …, and p99 when `all`. */
  latency(id: string, summary: LatencySummary, all: boolean): void;
  /** The value of `speed.<size>.<id>`, when it was added. */
  value(id: string): number | undefined;
}

export function createSizeFigures(label: string): SizeFigures {
  const figures: Figure[] = [];
  const add = (id: string, value: number, unit: string, better: Figure["better"]) => {
    figures.push(figure(`speed.${label}.${id}`, value, unit, better));
  };
  return {
    figures,
    add,
    latency(id, summary, all) {
      add(`${id}.p50_ms`, summary.p50, "ms", "lower");
      add(`${id}.p95_ms`, summary.p95, "ms", "lower");
      if (all) add(`${id}.p99_ms`, summary.p99, "ms", "lower");
    },
    value: (id) => figures.find((f) => f.id === `speed.${label}.${id}`)?.value,
  };
}

/** Figure-id prefixes of the corpora: the default one (none), then the extra distributions. */
export const CORPUS_PREFIXES: readonly string[] = ["", "common.", "anisotropic.", "sparse."];

const RATIOS: ReadonlyArray<[name: string, ours: string, theirs: string]> = [
  ["claw_vector_vs_fullscan", "claw.vector.p50_ms", "fullscan.vector.p50_ms"],
  ["claw_hybrid_vs_fullscan", "claw.hybrid.p50_ms", "fullscan.vector.p50_ms"],
  ["claw_keyword_vs_orama", "claw.keyword.p50_ms", "orama.keyword.p50_ms"],
  ["claw_hybrid_vs_orama", "claw.hybrid.p50_ms", "orama.hybrid.p50_ms"],
  ["claw_keyword_vs_plain_fts", "claw.keyword.p50_ms", "plain-fts.keyword.p50_ms"],
  ["claw_keyword_repeat_vs_first", "claw.keyword.repeat.p50_ms", "claw.keyword.p50_ms"],
  // The same queries again, each right after a store(): what a write costs the recall after it.
  ["claw_keyword_after_store_vs_repeat", "claw.keyword.after_store.p50_ms", "claw.keyword.repeat.p50_ms"],
  // Recall with a metadata filter keeping 10 % or 2 % of the entries, against the same without.
  ...(["keyword", "vector", "hybrid"] as const).flatMap((mode) =>
    (["where10", "where2"] as const).map((filter): [string, string, string] => [
      `claw_${mode}_${filter}_vs_unfiltered`,
      `claw.${mode}.${filter}.p50_ms`,
      `claw.${mode}.p50_ms`,
    ]),
  ),
];

/**
 * `<prefix>ratio.<name>.p50` for every corpus prefix and every pair whose two p50s were measured
 * at this size (one is absent when its peer did not run, e.g. Orama at 1M).
 */
export function addRatios(sizeFigures: SizeFigures): void {
  for (const prefix of CORPUS_PREFIXES) {
    for (const [name, ours, theirs] of RATIOS) {
      const a = sizeFigures.value(`${prefix}${ours}`);
      const b = sizeFigures.value(`${prefix}${theirs}`);
      if (a === undefined || b === undefined || b <= 0) continue;
      sizeFigures.add(`${prefix}ratio.${name}.p50`, a / b, "ratio", "lower");
    }
  }
}
