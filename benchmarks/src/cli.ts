#!/usr/bin/env node
// `pnpm bench [suite...] [--profile ci|full|large] [--out dir] [--data dir] [--gate file | --no-gate]`
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import type { Gate } from "./gate/evaluate-gates.js";
import { runBenchmarks } from "./run-benchmarks.js";
import type { Profile } from "./suite.js";
import { SUITES } from "./suites.js";

const PROFILES: readonly Profile[] = ["ci", "full", "large"];
const packageDir = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const repoDir = resolve(packageDir, "..");

const USAGE = `usage: pnpm bench [${Object.keys(SUITES).join("|")} ...] [--profile ci|full|large] [--out DIR] [--data DIR] [--gate FILE | --no-gate] [--no-docs]
  --profile  ci (small, gated, < 5 min), full (the figures of docs/benchmarks.md) or large (1M entries: speed
             with every corpus distribution, postgres at 100k and 1M; tens of minutes; other suites are skipped); default ci
  --out      where results.json, report.md and the SVG charts go; default benchmarks/results/<profile>
  --data     the shared data directory; default ../shared/data beside the repository
  --gate     the baseline file of gates; default benchmarks/baseline.json in the ci profile
  --no-gate  report only
  --no-docs  do not write the tables of a full or large run into docs/benchmarks.md`;

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      profile: { type: "string", default: "ci" },
      out: { type: "string" },
      data: { type: "string" },
      gate: { type: "string" },
      "no-gate": { type: "boolean", default: false },
      "no-docs": { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const profile = values.profile as Profile;
  if (!PROFILES.includes(profile)) return usage(`unknown profile "${values.profile}"`);
  const names = positionals.length > 0 ? positionals : Object.keys(SUITES);
  const unknown = names.filter((n) => !(n in SUITES));
  if (unknown.length > 0) return usage(`unknown suite ${unknown.join(", ")}`);

  const gateFile = values["no-gate"]
    ? undefined
    : (values.gate ?? (profile === "ci" ? join(packageDir, "baseline.json") : undefined));
  const gates =
    gateFile === undefined
      ? undefined
      : (JSON.parse(readFileSync(gateFile, "utf8")) as { gates: Gate[] }).gates;
  const outDir = resolve(values.out ?? join(packageDir, "results", profile));
  const run = await runBenchmarks({
    suites: names.map((n) => SUITES[n as keyof typeof SUITES]),
    profile,
    dataDir: resolve(values.data ?? join(repoDir, "..", "shared", "data")),
    outDir,
    gates,
    command: ["pnpm bench", ...process.argv.slice(2)].join(" "),
    ...commitOf(repoDir),
    // The page holds figures of full and large runs (and only of runs made on purpose: --no-docs).
    ...(values["no-docs"] || profile === "ci" ? {} : { docsFile: join(repoDir, "docs", "benchmarks.md") }),
    log: (message) => console.error(`[bench] ${message}`),
  });
  console.log(readFileSync(join(outDir, "report.md"), "utf8"));
  console.log(`results: ${outDir}`);
  if (run.gate && !run.gate.passed) {
    for (const r of run.gate.results.filter((x) => !x.ok)) console.error(`gate failed: ${r.message}`);
    return 1;
  }
  return 0;
}

/** The commit measured, with "+ changes" when the working tree differs from it; nothing outside git. */
function commitOf(dir: string): { commit?: string } {
  try {
    const git = (...args: string[]) => execFileSync("git", args, { cwd: dir, encoding: "utf8" }).trim();
    const head = git("rev-parse", "--short", "HEAD");
    return {
      commit: git("status", "--porcelain", "--untracked-files=no") === "" ? head : `${head} + changes`,
    };
  } catch {
    return {};
  }
}

function usage(problem: string): number {
  console.error(`${problem}\n${USAGE}`);
  return 2;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  },
);
