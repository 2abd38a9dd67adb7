// The doc-test's own test (node --test scripts/doc-test.test.mjs, in .ci/run before `pnpm docs:test`):
// Markdown fixtures written to a temp folder, run through the real script, which must pass the good
// ones and fail — naming file and line — when a snippet breaks. Needs the packages built.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { after, describe, it } from "node:test";
import { alignOutput, compareOutput } from "./doc-test/compare-output.mjs";
import { linksOf } from "./doc-test/links.mjs";
import { anchorsOf } from "./doc-test/markdown.mjs";
import { missingBuilds } from "./doc-test/project.mjs";
import { runnableBlocks } from "./doc-test/run-blocks.mjs";

const repo = resolve(dirname(new URL(import.meta.url).pathname), "..");
const script = join(repo, "scripts", "doc-test.mjs");
const temp = mkdtempSync(join(tmpdir(), "claw-doc-test-fixtures-"));
after(() => rmSync(temp, { recursive: true, force: true }));

const F = "```"; // a fence, so that this file's template literals stay readable

/** Writes a fixture; returns its path and `lineOf(needle, nth)`, the 1-based line of a text in it. */
function fixture(name, text) {
  const path = join(temp, name);
  writeFileSync(path, text);
  const lines = text.split("\n");
  const lineOf = (needle, nth = 1) => {
    let seen = 0;
    const index = lines.findIndex((line) => line.includes(needle) && ++seen === nth);
    assert.notEqual(index, -1, `${needle} not in ${name}`);
    return index + 1;
  };
  return { path, lineOf };
}

/** Runs the script as CI does, with API keys in the environment it must not pass on. */
function docTest(...args) {
  const env = {
    ...process.env,
    OPENAI_API_KEY: "sk-must-not-reach-a-snippet",
    CLAW_MEMORY_WORKSPACE: "/nowhere",
  };
  return new Promise((done) => {
    execFile(process.execPath, [script, ...args], { cwd: repo, env, maxBuffer: 1 << 24 }, (error, stdout) =>
      done({ code: error ? error.code : 0, stdout }),
    );
  });
}

const parse = (stdout) => ({ stdout, summary: stdout.trim().split("\n").at(-1) });

describe("doc-test on fixtures", () => {
  fixture(
    "other.md",
    "# Other\n\n## A heading_with underscores\n\nBack to [the passing file](pass.md#usage).\n",
  );
  const pass = fixture(
    "pass.md",
    `# Passing snippets

## The \`recall()\` API: scores & recency

## Usage

## Usage

## 🚀 Quick start

See [scores](#the-recall-api-scores--recency), [the second usage](#usage-1), [start](#-quick-start),
[a heading of another file](other.md#a-heading_with-underscores), [a folder](./), [a site](https://example.invalid/x),
and [a link whose text
wraps](other.md#other). Code is not a link: \`[x](missing.md)\`.

${F}js run
import { createMemory } from "@claw/memory-core";
// HOME's default workspace: the one the CLI uses too (CLAW_MEMORY_WORKSPACE).
const memory = await createMemory();
await memory.store("standup", "The standup moved to 9:30");
await memory.close();
console.log("stored   ");
console.log("line 2");
${F}

${F}text
stored
line 2

${F}

${F}js run
for (let i = 1; i <= 5; i++) console.log(\`line \${i}\`);
console.log(process.env.OPENAI_API_KEY ?? "no key", process.env.NO_COLOR);
const offline = await fetch("https://example.invalid/").catch((e) => String(e.cause?.message));
console.log(offline.includes("runs offline") ? "offline" : offline);
${F}

${F}text
line 1
...
line 5
no key 1
offline
${F}

${F}sh run
claw-memory store greeting "hello from the shell"
claw-memory --json get greeting | node -e 'process.stdin.on("data", (d) => console.log(JSON.parse(d).content))'
claw-memory --json recall standup | node -e 'process.stdin.on("data", (d) => console.log(JSON.parse(d)[0].key))'
echo "made by the sh block" > shared.txt
${F}

${F}text
...
hello from the shell
standup
${F}

${F}js
throw new Error("a block without run must not run");
${F}

${F}sh
exit 3
${F}

${F}js run
import { readFileSync } from "node:fs";
console.log(readFileSync("shared.txt", "utf8").trim());
${F}

${F}text
made by the sh block
${F}
`,
  );

  it("passes a good file: outputs, `...`, claw-memory in sh, one folder per file, good anchors", async () => {
    const { code, stdout } = await docTest(pass.path, join(temp, "other.md"));
    const { summary } = parse(stdout);
    assert.equal(summary, "doc-test: 4 blocks run in 1 files, 0 failed; links: 7 checked, 0 broken", stdout);
    assert.match(stdout, new RegExp(`ok {4}${pass.path}:${pass.lineOf(`${F}sh run`)} sh`));
    assert.doesNotMatch(stdout, /must not run/);
    assert.equal(code, 0);
  });

  it("fails a changed output with a diff naming the file and line, and skips the rest of the file", async () => {
    const file = fixture(
      "changed.md",
      `# Changed\n\n${F}js run\nconsole.log("one");\nconsole.log("two!");\nconsole.log("three");\n${F}\n\n${F}text\none\ntwo\nthree\n${F}\n\n${F}sh run\necho later\n${F}\n`,
    );
    const { code, stdout } = await docTest(file.path);
    assert.equal(code, 1);
    const { summary } = parse(stdout);
    assert.equal(
      summary,
      "doc-test: 1 blocks run in 1 files, 1 failed, 1 skipped; links: 0 checked, 0 broken",
    );
    assert.match(stdout, new RegExp(`FAIL {2}${file.path}:${file.lineOf(`${F}js run`)} js: stdout differs`));
    assert.ok(stdout.includes(`@@ ${file.path}:${file.lineOf("one", 2)} @@`), stdout);
    assert.match(stdout, /^ +-two$/m);
    assert.match(stdout, /^ +\+two!$/m);
    assert.match(stdout, new RegExp(`skip {2}${file.path}:${file.lineOf(`${F}sh run`)} sh`));
  });

  it("fails a throwing block, a failing pipe, an unknown language and a timeout; other files go on", async () => {
    const throws = fixture("throws.md", `${F}js run\nthrow new Error("boom from the snippet");\n${F}\n`);
    const pipe = fixture("pipe.md", `${F}sh run\nfalse | cat\necho not reached\n${F}\n`);
    const ts = fixture("ts.md", `${F}ts run\nconst x: number = 1;\n${F}\n`);
    const slow = fixture("slow.md", `${F}js run timeout=1\nsetInterval(() => {}, 1000);\n${F}\n`);
    const fine = fixture("fine.md", `${F}js run\nconsole.log("fine");\n${F}\n${F}text\nfine\n${F}\n`);
    const { code, stdout } = await docTest(throws.path, pipe.path, ts.path, slow.path, fine.path);
    assert.equal(code, 1);
    assert.equal(
      parse(stdout).summary,
      "doc-test: 5 blocks run in 5 files, 4 failed; links: 0 checked, 0 broken",
    );
    assert.match(stdout, new RegExp(`FAIL {2}${throws.path}:1 js: exit status 1`));
    assert.match(stdout, /Error: boom from the snippet/);
    assert.match(stdout, new RegExp(`FAIL {2}${pipe.path}:1 sh: exit status 1`));
    assert.doesNotMatch(stdout, /not reached/);
    assert.match(stdout, new RegExp(`FAIL {2}${ts.path}:1 ts: cannot run a "ts" block`));
    assert.match(stdout, new RegExp(`FAIL {2}${slow.path}:1 js: timed out after 1 s`));
    assert.match(stdout, new RegExp(`ok {4}${fine.path}:1 js`));
  });

  it("fails a broken link and a broken anchor; --links-only runs no block", async () => {
    const file = fixture(
      "links.md",
      `# Links\n\n[fine](other.md) [missing](no-such-file.md)\n\n![missing image](img/none.png)\n\n[bad anchor](other.md#no-such-heading) [bad local anchor](#nowhere)\n\n${F}js run\nthrow new Error("not run with --links-only");\n${F}\n`,
    );
    const { code, stdout } = await docTest("--links-only", file.path);
    assert.equal(code, 1);
    assert.equal(
      parse(stdout).summary,
      "doc-test: 0 blocks run in 0 files, 0 failed; links: 5 checked, 4 broken",
    );
    assert.ok(stdout.includes(`${file.path}:3 [missing](no-such-file.md): `), stdout);
    assert.ok(stdout.includes(`${file.path}:5 ![missing image](img/none.png): `), stdout);
    assert.ok(stdout.includes("no heading with anchor #no-such-heading in"), stdout);
    assert.ok(
      stdout.includes(`${file.path}:7 [bad local anchor](#nowhere): no heading with anchor #nowhere`),
    );
    assert.doesNotMatch(stdout, /not run with --links-only/);
  });
});

describe("the parts", () => {
  it("slugs headings as GitHub does", () => {
    const anchors = anchorsOf(
      [
        "# claw-memory",
        "## The `recall()` API: scores & recency",
        "## Usage",
        "## Usage",
        "### `claw-memory recall --explain`",
        "## 🚀 Quick start",
        "## Émigré Ünïcode",
        "## snake_case and _emphasis_ **bold**",
        "## [Linked](docs/x.md) heading <sup>1</sup>",
        "## What's new? (v2.0)",
        "Setext heading",
        "--------------",
        "```sh",
        "# not a heading",
        "```",
        '<a id="custom-anchor"></a>',
      ].join("\n"),
    );
    assert.deepEqual(
      [...anchors],
      [
        "claw-memory",
        "the-recall-api-scores--recency",
        "usage",
        "usage-1",
        "claw-memory-recall---explain",
        "-quick-start",
        "émigré-ünïcode",
        "snake_case-and-emphasis-bold",
        "linked-heading-1",
        "whats-new-v20",
        "setext-heading",
        "custom-anchor",
      ],
    );
  });

  it("finds links outside code, across line breaks, and reference definitions", () => {
    const links = linksOf(
      "a [b\nc](d.md) `[e](f.md)`\n\n```md\n[g](h.md)\n```\n[i]: j.md\n[^1]: a footnote\n",
    );
    assert.deepEqual(
      links.map(({ line, target }) => `${line} ${target}`),
      ["1 d.md", "7 j.md"],
    );
  });

  it("matches `...` to any number of lines, trailing whitespace ignored", () => {
    assert.equal(compareOutput("a\n...\nd\n", "a  \nb\nc\nd\n\n", "f.md", 1), undefined);
    assert.equal(compareOutput("a\n...\nb\n", "a\nb\n", "f.md", 1), undefined);
    assert.equal(compareOutput("...\n", "", "f.md", 1), undefined);
    assert.equal(alignOutput(["a", "...", "c"], ["a", "b"]).ok, false);
    assert.equal(
      compareOutput("x\ny\n", "x\nz\n", "f.md", 10),
      "--- expected (f.md:10)\n+++ actual (stdout)\n@@ f.md:10 @@\n x\n-y\n+z",
    );
  });

  it("takes `run` blocks only, each with the output block right after it", () => {
    const blocks = runnableBlocks(
      `${F}js run\n1\n${F}\n\n${F}text\nout\n${F}\n${F}js\n2\n${F}\n${F}sh run timeout=5\n3\n${F}\nprose\n${F}text\nnot its output\n${F}\n`,
    );
    assert.deepEqual(
      blocks.map(({ line, kind, timeout, expected, expectedLine }) => ({
        line,
        kind,
        timeout,
        expected,
        expectedLine,
      })),
      [
        { line: 1, kind: "js", timeout: undefined, expected: "out\n", expectedLine: 6 },
        { line: 11, kind: "sh", timeout: 5, expected: undefined, expectedLine: undefined },
      ],
    );
  });

  it("names what is not built", () => {
    const fake = join(temp, "fake-repo");
    mkdirSync(join(fake, "packages", "lib"), { recursive: true });
    writeFileSync(
      join(fake, "packages", "lib", "package.json"),
      JSON.stringify({ name: "@claw/lib", exports: { ".": { import: "./dist/index.js" } } }),
    );
    assert.deepEqual(missingBuilds(fake), [
      "packages/lib/dist/index.js",
      "apps/memory-cli/dist/bin.js",
      "apps/memory-server/dist/bin.js",
    ]);
    assert.deepEqual(missingBuilds(repo), []);
  });
});
