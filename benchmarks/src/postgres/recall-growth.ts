import { type Figure, figure, type TableSpec } from "../suite.js";
import type { Measured } from "./measure-backend.js";

/** "100k", "1M". */
export const sizeLabel = (size: number): string =>
  size >= 1_000_000 ? `${size / 1_000_000}M` : `${size / 1000}k`;

/** How each backend's recall grows from the smallest size measured to the largest, in the same run. */
export function growthFigures(
  bySize: ReadonlyArray<{ size: number; results: ReadonlyMap<string, Measured> }>,
): Figure[] {
  const first = bySize[0];
  const last = bySize.at(-1);
  if (first === undefined || last === undefined || first === last) return [];
  const id = `postgres.growth.${sizeLabel(last.size)}_vs_${sizeLabel(first.size)}`;
  return [...last.results].flatMap(([name, big]) => {
    const small = first.results.get(name);
    if (small === undefined) return [];
    return [
      figure(`${id}.${name}.keyword_p50`, big.keyword / small.keyword, "×", "lower"),
      figure(`${id}.${name}.keyword_typed_p50`, big.keywordTyped / small.keywordTyped, "×", "lower"),
      figure(`${id}.${name}.hybrid_p50`, big.hybrid / small.hybrid, "×", "lower"),
    ];
  });
}

/** The growth figures as a table: one row per backend. */
export function growthTable(growth: Figure[]): TableSpec {
  const parts = growth[0]?.id.split(".") ?? [];
  const sizes = (parts[2] ?? "").replace("_vs_", " over ");
  const byBackend = new Map<string, Map<string, number>>();
  for (const f of growth) {
    const [backend = "", what = ""] = f.id.split(".").slice(3);
    byBackend.set(backend, (byBackend.get(backend) ?? new Map()).set(what, f.value));
  }
  return {
    title: `Recall p50 at ${sizes}, same run`,
    docs: "postgres-large",
    columns: ["backend", "keyword (×)", "keyword, typed (×)", "hybrid (×)"],
    rows: [...byBackend].map(([backend, v]) => [
      backend,
      v.get("keyword_p50") ?? "—",
      v.get("keyword_typed_p50") ?? "—",
      v.get("hybrid_p50") ?? "—",
    ]),
    note: "Each backend's p50 at the larger size divided by its p50 at the smaller one, both measured in this run on fresh stores.",
  };
}
