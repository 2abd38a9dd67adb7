import { copyFile, cp, mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SuiteOutput } from "../suite.js";
import { BEAM_QUESTION_TYPES } from "./beam-loader.js";
import { ENGINE_NAMES } from "./engines/all-engines.js";
import { BEAM_DIR, LOCOMO_FILE, qualitySuite } from "./quality-suite.js";

const FIXTURE = new URL("./__fixtures__/locomo-tiny.json", import.meta.url).pathname;
const BEAM_FIXTURE = new URL("./__fixtures__/beam-tiny", import.meta.url).pathname;

describe("qualitySuite on the tiny fixture", () => {
  let root: string;
  let output: SuiteOutput;
  const lines: string[] = [];

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), "quality-suite-"));
    const dataDir = join(root, "data");
    await mkdir(join(dataDir, "locomo"), { recursive: true });
    await copyFile(FIXTURE, join(dataDir, LOCOMO_FILE));
    await cp(BEAM_FIXTURE, join(dataDir, BEAM_DIR), { recursive: true });
    const workDir = join(root, "work");
    await mkdir(workDir);
    output = await qualitySuite.run({ profile: "ci", dataDir, workDir, log: (m) => lines.push(m) });
  });

  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it("reports every metric per engine and category under the agreed ids", () => {
    const ids = new Set(output.figures.map((f) => f.id));
    for (const engine of ENGINE_NAMES) {
      for (const metric of [
        "recall@1",
        "recall@5",
        "recall@10",
        "recall@20",
        "recall@40",
        "mrr",
        "ndcg@10",
      ]) {
        for (const group of ["cat1-4", "cat1", "cat2", "cat3", "cat4", "cat5"]) {
          expect(ids.has(`quality.locomo.${engine}.${metric}.${group}`)).toBe(true);
        }
        for (const group of ["all", ...BEAM_QUESTION_TYPES]) {
          expect(ids.has(`quality.beam.${engine}.${metric}.${group}`)).toBe(true);
        }
      }
    }
    // LoCoMo: 7 metrics × 6 groups; BEAM: 7 × 10; each with the question count and the search p50;
    // the five claw engines' recall@10 and MRR as ratios to plain FTS5, on both datasets.
    const claw = ENGINE_NAMES.filter((name) => name.startsWith("claw-")).length;
    expect(claw).toBe(5);
    expect(output.figures).toHaveLength(ENGINE_NAMES.length * (42 + 2 + 70 + 2) + claw * 2 * 2);
  });

  it("gives each claw engine's pooled recall@10 as a ratio to plain FTS5's", () => {
    const value = (id: string) => output.figures.find((f) => f.id === id)?.value;
    for (const dataset of [
      { id: "locomo", pooled: "cat1-4" },
      { id: "beam", pooled: "all" },
    ]) {
      const ours = value(
        `quality.${dataset.id}.claw-bm25-conversation.recall@10.${dataset.pooled}`,
      ) as number;
      const fts5 = value(`quality.${dataset.id}.fts5-baseline.recall@10.${dataset.pooled}`) as number;
      expect(fts5).toBeGreaterThan(0);
      expect(
        value(`quality.${dataset.id}.claw-bm25-conversation.vs_fts5.recall@10.${dataset.pooled}`),
      ).toBeCloseTo(ours / fts5, 12);
    }
  });

  it("scores BEAM messages by their evidence, abstention left out", () => {
    const value = (id: string) => output.figures.find((f) => f.id === id)?.value;
    expect(value("quality.beam.claw-bm25-conversation.questions")).toBe(3);
    // "Which database did I say I use?" names its one evidence message outright.
    expect(value("quality.beam.claw-bm25-conversation.recall@1.information_extraction")).toBe(1);
    expect(value("quality.beam.fts5-baseline.recall@10.knowledge_update")).toBe(1);
    expect(value("quality.beam.claw-bm25.recall@10.summarization")).toBe(0);
  });

  it("gives values that follow from the fixture", () => {
    const value = (id: string) => output.figures.find((f) => f.id === id);
    expect(value("quality.locomo.claw-bm25.questions")).toEqual({
      id: "quality.locomo.claw-bm25.questions",
      value: 6,
      unit: "count",
      better: "higher",
    });
    // The adversarial canoe question names its turn outright.
    expect(value("quality.locomo.orama-bm25.recall@1.cat5")?.value).toBe(1);
    expect(value("quality.locomo.fts5-baseline.mrr.cat2")?.value).toBe(1);
    const p50 = value("quality.locomo.claw-hybrid.search_p50_ms");
    expect(p50?.better).toBe("lower");
    expect(p50?.value).toBeGreaterThan(0);
  });

  it("charts recall@10 and MRR per category and recall by depth", () => {
    expect(output.charts.map((c) => c.id)).toEqual([
      "locomo-recall-at-10",
      "locomo-mrr",
      "locomo-recall-by-depth",
      "beam-recall-at-10",
      "beam-mrr",
      "beam-recall-by-depth",
    ]);
    const recall = output.charts[0];
    expect(recall?.series.map((s) => s.name)).toEqual([...ENGINE_NAMES]);
    expect(recall?.series[0]?.points.map((p) => p.x)).toEqual(["cat1", "cat2", "cat3", "cat4", "cat1-4"]);
    const depth = output.charts[2];
    expect(depth?.kind).toBe("line");
    expect(depth?.series[0]?.points.map((p) => p.x)).toEqual([5, 10, 20, 40]);
    expect(output.charts[3]?.series[0]?.points.map((p) => p.x)).toEqual([...BEAM_QUESTION_TYPES, "all"]);
  });

  it("tables recall at every depth per engine, and recall@10 per category", () => {
    const [pooled, perCategory] = output.tables;
    expect(pooled?.rows.map((r) => r[0])).toEqual([...ENGINE_NAMES]);
    expect(pooled?.columns).toEqual([
      "engine",
      "recall@1",
      "recall@5",
      "recall@10",
      "recall@20",
      "recall@40",
      "MRR",
      "nDCG@10",
      "cat5 recall@10",
    ]);
    expect(pooled?.note).toContain("2 unknown evidence ids dropped");
    expect(pooled?.note).toContain("top 40 asked");
    // Scored fixture questions: cat1 1 (the other has no known evidence), cat2 1, cat3 1, cat4 2, cat5 1.
    expect(perCategory?.columns).toEqual([
      "engine",
      "cat1 (1)",
      "cat2 (1)",
      "cat3 (1)",
      "cat4 (2)",
      "cat1-4 (5)",
      "cat5 (1)",
    ]);
    // "What did they talk about the first time?" shares no word but stop words with its two
    // evidence turns: keyword search finds neither; fts5-baseline matches "the" and finds one.
    const row = (engine: string) => perCategory?.rows.find((r) => r[0] === engine);
    expect(row("claw-bm25")).toEqual(["claw-bm25", 1, 1, 0, 1, 0.8, 1]);
    expect(row("fts5-baseline")).toEqual(["fts5-baseline", 1, 1, 0.5, 1, 0.9, 1]);
  });

  it("tables BEAM by question type, with its counts", () => {
    const [, , pooled, perType] = output.tables;
    expect(pooled?.title).toBe("BEAM message-level retrieval (all pooled)");
    expect(pooled?.note).toContain(
      "1 conversations, 6 messages, 3 questions (1 without a known evidence message",
    );
    expect(perType?.columns.slice(1, 4)).toEqual([
      "information_extraction (1)",
      "knowledge_update (1)",
      "temporal_reasoning (1)",
    ]);
    expect(perType?.columns.at(-1)).toBe("all (3)");
  });

  it("logs progress per engine and conversation", () => {
    expect(lines.find((l) => l.includes("LoCoMo"))).toContain("1 conversations, 7 turns, 6 questions");
    expect(lines.filter((l) => l.includes("conv-tiny") && l.endsWith("done"))).toHaveLength(
      ENGINE_NAMES.length,
    );
  });
});
