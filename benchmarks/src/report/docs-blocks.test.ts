import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { replaceDocsBlocks, writeDocsBlocks } from "./docs-blocks.js";
import type { RunRecord } from "./markdown-report.js";

const PAGE = [
  "# Benchmarks",
  "",
  "<!-- bench:quality-locomo -->",
  "old locomo table, by hand",
  "<!-- /bench:quality-locomo -->",
  "",
  "prose between",
  "",
  "<!-- bench:postgres -->",
  "old postgres table",
  "<!-- /bench:postgres -->",
  "",
].join("\n");

function run(tables: RunRecord["tables"]): RunRecord {
  return {
    profile: "full",
    suites: ["quality"],
    startedAt: "2026-11-29T07:00:00.000Z",
    durationMs: 181_000,
    machine: { node: "20.19.0", platform: "linux-x64", cpus: 2, memoryGb: 8 },
    command: "pnpm bench quality --profile full",
    commit: "abc1234",
    figures: [],
    tables,
    charts: [],
  };
}

const locomo = {
  title: "LoCoMo turn-level retrieval",
  columns: ["engine", "recall@10"],
  rows: [["claw-bm25", 0.72]],
  note: "6 conversations.",
  docs: "quality-locomo",
};

describe("the benchmark page's bench: blocks", () => {
  it("replaces the block a table names, with the command, date and commit, and leaves the rest", () => {
    const { page, written, missing } = replaceDocsBlocks(PAGE, run([locomo, { ...locomo, docs: undefined }]));
    expect(written).toEqual(["quality-locomo"]);
    expect(missing).toEqual([]);
    expect(page).toBe(
      [
        "# Benchmarks",
        "",
        "<!-- bench:quality-locomo -->",
        "",
        "`pnpm bench quality --profile full` on 2026-11-29 (181 s, commit abc1234; Node 20.19.0, 2 cores, 8 GiB):",
        "",
        "### LoCoMo turn-level retrieval",
        "",
        "| engine | recall@10 |",
        "|---|---:|",
        "| claw-bm25 | 0.72 |",
        "",
        "6 conversations.",
        "",
        "<!-- /bench:quality-locomo -->",
        "",
        "prose between",
        "",
        "<!-- bench:postgres -->",
        "old postgres table",
        "<!-- /bench:postgres -->",
        "",
      ].join("\n"),
    );
    // A second run replaces the block again rather than adding to it.
    expect(replaceDocsBlocks(page, run([locomo])).page).toBe(page);
  });

  it("puts every table of one block in order, and reports blocks the page lacks", () => {
    const second = { ...locomo, title: "LoCoMo again" };
    const { page, missing } = replaceDocsBlocks(
      PAGE,
      run([locomo, second, { ...locomo, docs: "speed-full" }]),
    );
    expect(page.indexOf("### LoCoMo turn-level retrieval")).toBeLessThan(page.indexOf("### LoCoMo again"));
    expect(missing).toEqual(["speed-full"]);
    expect(page).not.toContain("speed-full");
  });

  it("writes the file only when a block changed", () => {
    const dir = mkdtempSync(join(tmpdir(), "claw-docs-blocks-"));
    try {
      const file = join(dir, "benchmarks.md");
      writeFileSync(file, PAGE);
      expect(writeDocsBlocks(file, run([]))).toEqual({ written: [], missing: [] });
      expect(readFileSync(file, "utf8")).toBe(PAGE);
      expect(writeDocsBlocks(file, run([locomo])).written).toEqual(["quality-locomo"]);
      expect(readFileSync(file, "utf8")).toContain("| claw-bm25 | 0.72 |");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
