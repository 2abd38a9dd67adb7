import { type Figure, figure, type TableSpec } from "../suite.js";
import type { Measured } from "./measure-backend.js";

/** "100k", "1M". */
export const sizeLabel = (size: number): string =>
  size >= 1_000_000 ? `${size / 1_000_000}M` : `${size / 1000}k`;

/** How each backend's recall grows from the smallest size measured to the largest, in the same run. */
export interface RecallGrowth {
  /** `postgres.growth.<large>_vs_<small>.<backend>.<what>`: the larger size's p50 ÷ the smaller's. */
  figures: Figure[];
  /** The same as a table, one row per backend; null when there is nothing to compare. */
  table: TableSpec | null;
}

/** The growth of each backend measured at both the smallest and the largest size of `bySize`. */
export function recallGrowth(
  bySize: ReadonlyArray<{ size: number; results: ReadonlyMap<string, Measured> }>,
): RecallGrowth {
  const first = bySize[0];
  const last = bySize.at(-1);
  if (first === undefined || last === undefined || first === last) return { figures: [], table: null };
  const sizes = `${sizeLabel(last.size)}_vs_${sizeLabel(first.size)}`;
  const figures: Figure[] = [];
  const rows: Array<Array<string | number>> = [];
  for (const [name, big] of last.results) {
    const small = first.results.get(name);
    if (small === undefined) continue;
    const ratios = [
      ["keyword_p50", big.keyword / small.keyword],
      ["keyword_typed_p50", big.keywordTyped / small.keywordTyped],
      ["hybrid_p50", big.hybrid / small.hybrid],
    ] as const;
    for (const [what, ratio] of ratios)
      figures.push(figure(`postgres.growth.${sizes}.${name}.${what}`, ratio, "×", "lower"));
    rows.push([name, ...ratios.map(([, ratio]) => ratio)]);
  }
  if (rows.length === 0) return { figures, table: null };
  return {
    figures,
    table: {
      title: `Recall p50 at ${sizeLabel(last.size)} over ${sizeLabel(first.size)}, same run`,
      docs: "postgres-large",
      columns: ["backend", "keyword (×)", "keyword, typed (×)", "hybrid (×)"],
      rows,
      note: "Each backend's p50 at the larger size divided by its p50 at the smaller one, both measured in this run on fresh stores.",
    },
  };
}
