import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { measureSize, type SizeResult } from "./measure-size.js";
import { SPEED_PROFILES, speedOutput, speedSuite } from "./speed-suite.js";

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
        seed: 11,
      },
      { workDir, log: (m) => logs.push(m) },
    );
  }, 30_000);

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
  });

  it("removes its databases and turns results into charts and a table", () => {
    expect(readdirSync(workDir)).toEqual([]);
    const output = speedOutput([result]);
    expect(output.charts.map((c) => c.id)).toEqual([
      "latency-vs-size-vector",
      "latency-vs-size-hybrid",
      "latency-vs-size-keyword",
    ]);
    expect(output.charts[0]?.series.map((s) => s.name)).toEqual([
      "claw vector",
      "fullscan",
      "js-scan",
      "orama vector",
    ]);
    expect(output.tables[0]?.rows.length).toBe(result.figures.length);
    expect(logs.some((l) => l.includes("orama"))).toBe(true);
  });
});

describe("speed profiles", () => {
  it("run 1k and 10k at 384 dims in ci, up to 1M in full", () => {
    expect(speedSuite.name).toBe("speed");
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
