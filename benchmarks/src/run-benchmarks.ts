import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { cpus, tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import { evaluateGates, type Gate } from "./gate/evaluate-gates.js";
import { writeDocsBlocks } from "./report/docs-blocks.js";
import { type RunRecord, renderMarkdown } from "./report/markdown-report.js";
import { renderChart } from "./report/svg-chart.js";
import { type Profile, type Suite, suiteRunsIn } from "./suite.js";

export interface RunOptions {
  suites: Suite<Profile>[];
  profile: Profile;
  dataDir: string;
  outDir: string;
  /** Gates to evaluate, or undefined for none. */
  gates?: Gate[];
  command: string;
  /** The commit measured, for the report and the docs page. */
  commit?: string;
  /** docs/benchmarks.md: a full or large run writes its tables into the page's `bench:` blocks. */
  docsFile?: string;
  log: (message: string) => void;
}

/** Runs the suites in order, writes results.json, report.md and the SVG charts, evaluates the gate. */
export async function runBenchmarks(options: RunOptions): Promise<RunRecord> {
  const started = Date.now();
  const run: RunRecord = {
    profile: options.profile,
    suites: options.suites.filter((s) => suiteRunsIn(s, options.profile)).map((s) => s.name),
    startedAt: new Date(started).toISOString(),
    durationMs: 0,
    machine: {
      node: process.versions.node,
      platform: `${process.platform}-${process.arch}`,
      cpus: cpus().length,
      memoryGb: Math.round(totalmem() / 2 ** 30),
    },
    command: options.command,
    ...(options.commit === undefined ? {} : { commit: options.commit }),
    figures: [],
    tables: [],
    charts: [],
  };
  for (const suite of options.suites) {
    if (!suiteRunsIn(suite, options.profile)) {
      options.log(`suite ${suite.name}: no plan for the ${options.profile} profile, skipped`);
      continue;
    }
    const workDir = mkdtempSync(join(tmpdir(), `claw-bench-${suite.name}-`));
    options.log(`suite ${suite.name} (${options.profile})`);
    try {
      const output = await suite.run({
        profile: options.profile,
        dataDir: options.dataDir,
        workDir,
        log: options.log,
      });
      run.figures.push(...output.figures);
      run.tables.push(...output.tables);
      run.charts.push(...output.charts);
    } finally {
      rmSync(workDir, { recursive: true, force: true });
    }
  }
  run.durationMs = Date.now() - started;
  if (options.gates !== undefined) {
    // Only gates on figures of the suites that ran: `pnpm bench quality` is not failed by speed gates.
    const prefixes = run.suites.map((name) => `${name}.`);
    const relevant = options.gates.filter((g) => prefixes.some((p) => g.figure.startsWith(p)));
    run.gate = evaluateGates(run.figures, relevant);
  }
  writeOutputs(run, options.outDir);
  if (options.docsFile !== undefined && options.profile !== "ci") {
    const { written, missing } = writeDocsBlocks(options.docsFile, run);
    if (written.length > 0) options.log(`docs: wrote ${written.join(", ")} into ${options.docsFile}`);
    if (missing.length > 0)
      options.log(`docs: no bench: markers for ${missing.join(", ")} in ${options.docsFile}`);
  }
  return run;
}

function writeOutputs(run: RunRecord, outDir: string): void {
  mkdirSync(outDir, { recursive: true });
  writeAtomically(join(outDir, "results.json"), `${JSON.stringify(run, null, 2)}\n`);
  writeAtomically(join(outDir, "report.md"), renderMarkdown(run));
  for (const chart of run.charts) writeAtomically(join(outDir, `${chart.id}.svg`), renderChart(chart));
}

function writeAtomically(path: string, text: string): void {
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, text);
  // rename is atomic on one filesystem: a reader never sees half a report.
  renameSync(temp, path);
}
