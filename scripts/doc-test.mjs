#!/usr/bin/env node
// `pnpm docs:test` — node scripts/doc-test.mjs [--links-only] [--keep] [--timeout SEC] [files…]
//
// Every snippet of the documentation runs. In README.md, the other top-level *.md files and
// docs/**/*.md (not docs/api/, generated), a fenced block marked ```js run is saved as a .mjs file and
// run with node, one marked ```sh run is run with `bash -euo pipefail`: the blocks of one file in
// order, in one temp project of their own (this repository's packages linked into its node_modules,
// `claw-memory` on PATH, HOME and a fresh CLAW_MEMORY_WORKSPACE inside it, NO_COLOR=1, no API keys,
// no network but this machine). A ```text block right after a run block is its expected stdout
// (trailing whitespace ignored; a line `...` stands for any number of lines). A block fails on a
// non-zero exit, a changed output or its timeout (60 s; ```js run timeout=120 for one block); the
// blocks after it in the same file are skipped. Then the link check: every relative link and image
// points at a file that exists, every anchor at a heading (slugged as GitHub does). Exit 1 on any
// failure. Needs the packages built (pnpm build).
import { readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { checkLinks, displayPath, GENERATED } from "./doc-test/links.mjs";
import { createProject, missingBuilds, resolvePackages } from "./doc-test/project.mjs";
import { runFileBlocks, runnableBlocks } from "./doc-test/run-blocks.mjs";

const repo = resolve(dirname(new URL(import.meta.url).pathname), "..");
const TAIL_LINES = 40;

/** README.md and the other top-level Markdown files, then docs/**\/*.md but the generated folders. */
export function documentationFiles(root) {
  const top = readdirSync(root)
    .filter((name) => /\.md$/i.test(name))
    .sort((a, b) => (a === "README.md" ? -1 : b === "README.md" ? 1 : a.localeCompare(b)));
  const docs = [];
  const walk = (dir) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      const rel = path
        .slice(root.length + 1)
        .split("\\")
        .join("/");
      if (GENERATED.some((g) => rel === g || rel.startsWith(`${g}/`))) continue;
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.md$/i.test(name)) docs.push(path);
    }
  };
  try {
    walk(join(root, "docs"));
  } catch (error) {
    if (error.code !== "ENOENT") throw error;
  }
  return [...top.map((name) => join(root, name)), ...docs];
}

const indent = (text, prefix = "        ") =>
  text
    .replace(/\s+$/, "")
    .split("\n")
    .map((line) => `${prefix}${line}`)
    .join("\n");

function tail(text) {
  const lines = text.replace(/\s+$/, "").split("\n");
  const cut = lines.length > TAIL_LINES ? [`[… ${lines.length - TAIL_LINES} lines before]`] : [];
  return [...cut, ...lines.slice(-TAIL_LINES)].join("\n");
}

function printOutcome(name, { status, block, result, reason }) {
  const where = `${name}:${block.line} ${block.kind}`;
  if (status === "skipped") console.log(`  skip  ${where} (an earlier block of ${name} failed)`);
  else if (status === "ok") console.log(`  ok    ${where} (${(result.ms / 1000).toFixed(1)} s)`);
  else {
    console.log(`  FAIL  ${where}: ${reason.split("\n")[0]}`);
    const details = reason.split("\n").slice(1).join("\n");
    if (details) console.log(indent(details));
    if (result?.stderr.trim() && !details)
      console.log(`        stderr:\n${indent(tail(result.stderr), "          ")}`);
    if (result?.stdout.trim() && !details)
      console.log(`        stdout:\n${indent(tail(result.stdout), "          ")}`);
  }
  return { status, block, result, reason };
}

async function main() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      "links-only": { type: "boolean", default: false },
      keep: { type: "boolean", default: false },
      timeout: { type: "string", default: "60" },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) {
    console.log("usage: node scripts/doc-test.mjs [--links-only] [--keep] [--timeout SEC] [files…]");
    return 0;
  }
  const timeoutSeconds = Number(values.timeout);
  if (!(timeoutSeconds > 0)) throw new Error(`--timeout expects seconds, got ${values.timeout}`);
  const files = positionals.length ? positionals.map((file) => resolve(file)) : documentationFiles(repo);
  const name = (file) => displayPath(file, process.cwd());

  let linksChecked = 0;
  let linksBroken = 0;
  const anchorCache = new Map();
  for (const file of files) {
    const { checked, broken } = checkLinks(file, repo, anchorCache);
    linksChecked += checked;
    linksBroken += broken.length;
    for (const link of broken)
      console.log(`  BROKEN ${name(file)}:${link.line} ${link.text}(${link.target}): ${link.reason}`);
  }

  const withBlocks = values["links-only"]
    ? []
    : files
        .map((file) => ({ file, blocks: runnableBlocks(readFileSync(file, "utf8")) }))
        .filter(({ blocks }) => blocks.length);
  let run = 0;
  let failed = 0;
  let skipped = 0;
  const missing = withBlocks.length ? missingBuilds(repo) : [];
  if (missing.length) {
    console.log(
      `doc-test: the packages are not built (missing ${missing.slice(0, 3).join(", ")}${missing.length > 3 ? ", …" : ""}): run \`pnpm build\` first`,
    );
    failed = withBlocks.reduce((sum, { blocks }) => sum + blocks.length, 0);
  } else {
    const links = withBlocks.length ? resolvePackages(repo) : new Map();
    for (const { file, blocks } of withBlocks) {
      console.log(`doc-test: ${name(file)} (${blocks.length} block${blocks.length === 1 ? "" : "s"})`);
      const project = createProject(repo, links, name(file));
      try {
        const outcomes = await runFileBlocks(blocks, project, {
          file: name(file),
          timeoutSeconds,
          report: (outcome) => printOutcome(name(file), outcome),
        });
        for (const { status } of outcomes) {
          if (status === "skipped") skipped++;
          else run++;
          if (status === "failed") failed++;
        }
      } finally {
        if (values.keep) console.log(`  kept ${project.dir}`);
        else rmSync(project.dir, { recursive: true, force: true });
      }
    }
  }
  console.log(
    `doc-test: ${run} blocks run in ${withBlocks.length} files, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}; ` +
      `links: ${linksChecked} checked, ${linksBroken} broken`,
  );
  return failed || linksBroken ? 1 : 0;
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname)) {
  main().then(
    (code) => {
      process.exitCode = code;
    },
    (error) => {
      console.error(`doc-test: ${error.stack ?? error}`);
      process.exitCode = 1;
    },
  );
}
