// Running the runnable blocks of one Markdown file, in order, in one temp project: ```js run saved as
// a .mjs file and run with node, ```sh run with `bash -euo pipefail`; a ```text block right after
// one (blank lines between at most) is its expected stdout. The first failing block stops the file.
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { compareOutput } from "./compare-output.mjs";
import { isAdjacent, parseBlocks } from "./markdown.mjs";

const RUNNERS = {
  js: { ext: "mjs", command: (file) => [process.execPath, [file]] },
  sh: { ext: "sh", command: (file) => ["bash", ["-euo", "pipefail", file]] },
};
const ALIASES = { javascript: "js", mjs: "js", bash: "sh", shell: "sh" };
const OUTPUT_LANGS = new Set(["text"]);

/**
 * The runnable blocks of a Markdown text: `{ line, kind, code, timeout?, expected?, expectedLine? }`
 * (`kind` "js" | "sh", or the unknown language of a block marked `run`), `expectedLine` being the
 * file line of the first expected output line.
 */
export function runnableBlocks(text) {
  const blocks = parseBlocks(text);
  const runnable = [];
  blocks.forEach((block, i) => {
    if (!block.words.includes("run")) return;
    const kind = ALIASES[block.lang] ?? block.lang;
    const next = blocks[i + 1];
    const output = next && OUTPUT_LANGS.has(next.lang) && isAdjacent(text, block, next) ? next : undefined;
    const timeout = Number(block.attrs.timeout);
    runnable.push({
      line: block.line,
      kind,
      code: block.code,
      timeout: Number.isFinite(timeout) && timeout > 0 ? timeout : undefined,
      expected: output?.code,
      expectedLine: output ? output.line + 1 : undefined,
    });
  });
  return runnable;
}

/** Runs `command` in its own process group; kills the group at the timeout. Never rejects. */
export function runProcess(command, args, { cwd, env, timeoutMs, groups }) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(command, args, { cwd, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    groups.push(child.pid);
    const stdout = [];
    const stderr = [];
    child.stdout.on("data", (chunk) => stdout.push(chunk));
    child.stderr.on("data", (chunk) => stderr.push(chunk));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid, "SIGKILL");
    }, timeoutMs);
    let settled = false;
    const finish = (code, signal, error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      const text = (chunks) => Buffer.concat(chunks).toString("utf8");
      resolve({
        code,
        signal,
        error,
        timedOut,
        ms: Date.now() - started,
        stdout: text(stdout),
        stderr: text(stderr),
      });
    };
    child.on("error", (error) => finish(null, null, error));
    child.on("close", (code, signal) => finish(code, signal));
    // A process the block left running in the background (a server for the next block) may hold
    // stdout open: once the block's own process exits, wait a moment for its output, no longer.
    child.on("exit", (code, signal) => {
      setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
        finish(code, signal);
      }, 500);
    });
  });
}

export function killGroup(pid, signal) {
  try {
    process.kill(-pid, signal);
  } catch {
    // the group is gone already
  }
}

/** Why a finished block failed, or undefined when it passed. */
function failureOf(block, result, file) {
  if (result.error) return `could not start: ${result.error.message}`;
  if (result.timedOut) return `timed out after ${block.timeoutMs / 1000} s`;
  if (result.code !== 0) return result.signal ? `killed by ${result.signal}` : `exit status ${result.code}`;
  if (block.expected === undefined) return undefined;
  const diff = compareOutput(block.expected, result.stdout, file, block.expectedLine);
  return diff && `stdout differs from the output shown:\n${diff}`;
}

/**
 * Runs the blocks of one file in `project` ({ dir, env }); `report(event)` is told each block's
 * outcome: `{ status: "ok" | "failed" | "skipped", block, result?, reason? }`. Returns the outcomes.
 */
export async function runFileBlocks(blocks, project, { file, timeoutSeconds, report }) {
  const outcomes = [];
  const groups = [];
  let failed = false;
  try {
    for (const [index, block] of blocks.entries()) {
      if (failed) {
        outcomes.push(report({ status: "skipped", block }));
        continue;
      }
      const runner = RUNNERS[block.kind];
      if (!runner) {
        failed = true;
        outcomes.push(
          report({ status: "failed", block, reason: `cannot run a "${block.kind}" block (js or sh)` }),
        );
        continue;
      }
      const script = join(project.dir, `block-${index + 1}-line-${block.line}.${runner.ext}`);
      writeFileSync(script, block.code);
      const timeoutMs = (block.timeout ?? timeoutSeconds) * 1000;
      const [command, args] = runner.command(script);
      const result = await runProcess(command, args, {
        cwd: project.dir,
        env: project.env,
        timeoutMs,
        groups,
      });
      const reason = failureOf({ ...block, timeoutMs }, result, file);
      failed = reason !== undefined;
      outcomes.push(report({ status: failed ? "failed" : "ok", block, result, reason }));
    }
  } finally {
    // Whatever a block left running in the background ends with its file.
    for (const pid of groups) killGroup(pid, "SIGTERM");
    await new Promise((resolve) => setTimeout(resolve, 200));
    for (const pid of groups) killGroup(pid, "SIGKILL");
  }
  return outcomes;
}
