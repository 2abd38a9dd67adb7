import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { measureSize, type SizeResult } from "./measure-size.js";
import { SPEED_PROFILES, speedOutput, speedSuite } from "./speed-suite.js";
import { measureStoreAfterImport } from "./store-after-import.js";

const LABEL = "tiny";

/** Every id the report and the CI gate read for one size. */
const REQUIRED = [
  "claw.store.p50_ms",
  "claw.store.p95_ms",
  "claw.import_per_s",
  ...["keyword", "vector", "hybrid"].flatMap((m) =>
    ["p50_ms", "p95_ms", "p99_ms"].map((p) => `claw.${m}.${p}`),
  ),
  "claw.vector.recall@10",
  "fullscan.vector.p50_ms",
  "js-scan.vector.p50_ms",
  "orama.hybrid.p50_ms",
  "orama.vector.p50_ms",
  "orama.keyword.p50_ms",
  "claw.rss_mb",
  "claw.db_mb",
  "ratio.claw_vector_vs_fullscan.p50",
  "ratio.claw_hybrid_vs_fullscan.p50",
  "ratio.claw_keyword_vs_orama.p50",
  "ratio.claw_hybrid_vs_orama.p50",
  ...["p50_ms", "p95_ms", "p99_ms"].map((p) => `plain-fts.keyword.${p}`),
  "ratio.claw_keyword_vs_plain_fts.p50",
  "claw.keyword.repeat.p50_ms",
  "ratio.claw_keyword_repeat_vs_first.p50",
  "claw.keyword.after_store.p50_ms",
  "ratio.claw_keyword_after_store_vs_repeat.p50",
  ...["claw", "plain-fts"].flatMap((e) =>
    ["p50_ms", "p95_ms", "p99_ms"].map((p) => `common.${e}.keyword.${p}`),
  ),
  "common.ratio.claw_keyword_vs_plain_fts.p50",
  ...["anisotropic", "sparse"].flatMap((d) => [
    `${d}.claw.vector.p50_ms`,
    `${d}.claw.vector.p99_ms`,
    `${d}.claw.vector.recall@10`,
    `${d}.claw.rss_mb`,
    `${d}.fullscan.vector.p50_ms`,
    `${d}.ratio.claw_vector_vs_fullscan.p50`,
  ]),
];

describe("speed suite on a 300-entry corpus", () => {
  let workDir: string;
  let result: SizeResult;
  const logs: string[] = [];

  beforeAll(async () => {
    workDir = mkdtempSync(join(tmpdir(), "speed-suite-"));
    result = await measureSize(
      {
        label: LABEL,
        size: 300,
        dimensions: 384,
        queries: 30,
        vectorQueries: 30,
        warmup: 3,
        stores: 20,
        jsScan: true,
        orama: true,
        distributions: true,
        seed: 11,
      },
      { workDir, log: (m) => logs.push(m) },
    );
  }, 60_000);

  afterAll(() => rmSync(workDir, { recursive: true, force: true }));

  it("reports every figure with a finite value", () => {
    const byId = new Map(result.figures.map((f) => [f.id, f]));
    for (const id of REQUIRED) {
      const found = byId.get(`speed.${LABEL}.${id}`);
      expect(found, id).toBeDefined();
      expect(Number.isFinite(found?.value), id).toBe(true);
    }
    expect(byId.get(`speed.${LABEL}.claw.import_per_s`)?.better).toBe("higher");
    expect(byId.get(`speed.${LABEL}.claw.keyword.p50_ms`)?.better).toBe("lower");
    expect(byId.get(`speed.${LABEL}.claw.db_mb`)?.value).toBeGreaterThan(0);
  });

  it("finds the exact nearest neighbours through claw's vector recall", () => {
    const recall = result.figures.find((f) => f.id === `speed.${LABEL}.claw.vector.recall@10`);
    expect(recall?.value).toBeGreaterThanOrEqual(0.9);
  });

  it("computes each ratio from the p50s of the same run", () => {
    const value = (id: string) => result.figures.find((f) => f.id === `speed.${LABEL}.${id}`)?.value ?? NaN;
    expect(value("ratio.claw_hybrid_vs_orama.p50")).toBeCloseTo(
      value("claw.hybrid.p50_ms") / value("orama.hybrid.p50_ms"),
      9,
    );
    expect(value("common.ratio.claw_keyword_vs_plain_fts.p50")).toBeCloseTo(
      value("common.claw.keyword.p50_ms") / value("common.plain-fts.keyword.p50_ms"),
      9,
    );
    expect(value("sparse.ratio.claw_vector_vs_fullscan.p50")).toBeCloseTo(
      value("sparse.claw.vector.p50_ms") / value("sparse.fullscan.vector.p50_ms"),
      9,
    );
  });

  it("reports recall per vector distribution as a share, and no ratio without its peer", () => {
    const ids = new Set(result.figures.map((f) => f.id));
    for (const d of ["anisotropic", "sparse"]) {
      const recall = result.figures.find((f) => f.id === `speed.${LABEL}.${d}.claw.vector.recall@10`);
      expect(recall?.value).toBeGreaterThan(0);
      expect(recall?.value).toBeLessThanOrEqual(1);
      expect(ids.has(`speed.${LABEL}.${d}.ratio.claw_hybrid_vs_fullscan.p50`)).toBe(false);
    }
    expect(result.corpusNotes[0]).toMatch(/^common corpus: its top word is in \d+% of entries/);
  });

  it("removes its databases and turns results into charts and a table", () => {
    expect(readdirSync(workDir)).toEqual([]);
    const output = speedOutput([result]);
    expect(output.charts.map((c) => c.id)).toEqual([
      "latency-vs-size-vector",
      "latency-vs-size-hybrid",
      "latency-vs-size-keyword",
      "vector-recall-by-distribution",
    ]);
    expect(output.charts[3]?.series.map((s) => [s.name, s.points.map((p) => p.x)])).toEqual([
      ["clustered", [LABEL]],
      ["anisotropic", [LABEL]],
      ["sparse", [LABEL]],
    ]);
    expect(output.charts[0]?.series.map((s) => s.name)).toEqual([
      "claw vector",
      "fullscan",
      "js-scan",
      "orama vector",
    ]);
    // The default corpus's figures in the size table, the other corpora in their own table.
    const extra = result.figures.filter((f) => /^speed\.tiny\.(common|anisotropic|sparse)\./.test(f.id));
    expect(extra.length).toBeGreaterThan(20);
    expect(output.tables[0]?.rows.length).toBe(result.figures.length - extra.length);
    expect(output.tables[1]?.title).toBe(`Speed at ${LABEL} by corpus distribution`);
    expect(output.tables[1]?.rows.map((r) => r[0])).toEqual([
      "default: stopwords text, rare queries, clustered vectors",
      "common text, typed queries",
      "anisotropic vectors (common text, typed queries)",
      "sparse vectors (common text, typed queries)",
    ]);
    // The common corpus has no vector figures, the vector distributions no keyword ones.
    expect(output.tables[1]?.rows[1]?.[4]).toBe("–");
    expect(output.tables[1]?.rows[2]?.[1]).toBe("–");
    expect(logs.some((l) => l.includes("orama"))).toBe(true);
  });
});

describe("speed profiles", () => {
  it("run 1k and 10k at 384 dims in ci, up to 1M in full, 1M with every distribution in large", () => {
    expect(speedSuite.name).toBe("speed");
    expect(speedSuite.profiles).toEqual(["ci", "full", "large"]);
    expect(SPEED_PROFILES.ci.every((p) => p.distributions)).toBe(true);
    expect(SPEED_PROFILES.full.map((p) => p.distributions)).toEqual([true, true, true, false]);
    expect(
      SPEED_PROFILES.large.map((p) => [p.label, p.size, p.dimensions, p.distributions, p.orama]),
    ).toEqual([["1m", 1_000_000, 384, true, false]]);
    expect(SPEED_PROFILES.ci.map((p) => [p.label, p.dimensions])).toEqual([
      ["1k", 384],
      ["10k", 384],
    ]);
    expect(SPEED_PROFILES.full.map((p) => [p.label, p.size, p.dimensions])).toEqual([
      ["1k", 1_000, 768],
      ["10k", 10_000, 768],
      ["100k", 100_000, 768],
      ["1m", 1_000_000, 384],
    ]);
  });
});

describe("store() after imports", () => {
  it("times store() after one import and after the same entries in several calls", async () => {
    const workDir = mkdtempSync(join(tmpdir(), "after-import-"));
    try {
      const figures = await measureStoreAfterImport(
        { size: 3000, calls: 3, stores: 25, seed: 5 },
        { workDir, log: () => {} },
      );
      const value = (id: string) => figures.value(id) ?? Number.NaN;
      for (const name of ["import", "batches"]) {
        expect(value(`claw.${name}.import_per_s`)).toBeGreaterThan(0);
        expect(value(`claw.store_after_${name}.p95_ms`)).toBeGreaterThanOrEqual(
          value(`claw.store_after_${name}.p50_ms`),
        );
      }
      expect(value("ratio.claw_store_after_batches_vs_import.p95")).toBeCloseTo(
        value("claw.store_after_batches.p95_ms") / value("claw.store_after_import.p95_ms"),
        9,
      );
      expect(figures.figures.map((f) => f.id)).toContain(
        "speed.after-import.3k.ratio.claw_store_after_batches_vs_import.p50",
      );
      expect(readdirSync(workDir)).toEqual([]);
    } finally {
      rmSync(workDir, { recursive: true, force: true });
    }
  });
});
