#!/usr/bin/env node
// Architecture rules biome cannot check, run by `pnpm lint`: no import circle between source files
// (type-only imports included) and no source file over 400 lines. Reads the files git tracks.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";

const MAX_LINES = 400;
const root = resolve(dirname(new URL(import.meta.url).pathname), "..");
const files = execFileSync(
  "git",
  ["ls-files", "-co", "--exclude-standard", "packages", "apps", "benchmarks"],
  {
    cwd: root,
    encoding: "utf8",
  },
)
  .split("\n")
  .filter((f) => /\.(ts|tsx|mts)$/.test(f) && !/\.(test|d)\.ts$/.test(f) && !f.includes("node_modules/"));

const problems = [];
const graph = new Map();
const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^;'"]*?from\s+["'](\.{1,2}\/[^"']+)["']/g;
for (const file of files) {
  const path = resolve(root, file);
  let text;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    continue; // deleted in the working tree but still tracked
  }
  const lines = text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
  if (lines > MAX_LINES) problems.push(`${file}: ${lines} lines (at most ${MAX_LINES})`);
  const deps = [];
  for (const match of text.matchAll(IMPORT))
    deps.push(resolve(dirname(path), match[1].replace(/\.js$/, ".ts")));
  graph.set(path, deps);
}

// Tarjan's strongly connected components: every component of more than one file is a circle.
let counter = 0;
const index = new Map();
const low = new Map();
const onStack = new Set();
const stack = [];
function visit(v) {
  index.set(v, counter);
  low.set(v, counter);
  counter++;
  stack.push(v);
  onStack.add(v);
  for (const w of graph.get(v) ?? []) {
    if (!graph.has(w)) continue;
    if (!index.has(w)) {
      visit(w);
      low.set(v, Math.min(low.get(v), low.get(w)));
    } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
  }
  if (low.get(v) !== index.get(v)) return;
  const component = [];
  let w;
  do {
    w = stack.pop();
    onStack.delete(w);
    component.push(w.slice(root.length + 1));
  } while (w !== v);
  if (component.length > 1) problems.push(`import circle: ${component.sort().join(" → ")}`);
}
for (const v of graph.keys()) if (!index.has(v)) visit(v);

if (problems.length > 0) {
  for (const p of problems) process.stderr.write(`${p}\n`);
  process.exit(1);
}
process.stdout.write(
  `architecture: ${files.length} source files, no import circle, none over ${MAX_LINES} lines\n`,
);
