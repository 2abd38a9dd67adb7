import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { PassThrough, Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import type { EmbeddingProvider, TextGenerator } from "@claw/memory-api";
import { onTestFinished } from "vitest";
import type { CliDeps } from "../cli-deps.js";
import { runCli } from "../run-cli.js";

export const BIN = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "dist", "bin.js");

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** A fresh workspace folder removed after the test. */
export function tempWorkspace(): string {
  const dir = mkdtempSync(join(tmpdir(), "claw-cli-test-"));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export interface InProcessOptions {
  stdin?: string;
  stdinIsTTY?: boolean;
  stdoutIsTTY?: boolean;
  /** stderr as a terminal (progress bars are drawn only there). */
  stderrIsTTY?: boolean;
  env?: Record<string, string>;
  embeddings?: EmbeddingProvider | null;
  generator?: TextGenerator;
  confirm?: (question: string) => Promise<boolean>;
  now?: Date;
  /** Resolves when a long-running command (watch, mcp) should stop. */
  stopSignal?: () => Promise<void>;
  /** Called with each chunk written to stdout (to react to a long-running command's output). */
  onStdout?: (text: string) => void;
}

/** Runs `claw-memory <args>` in this process through runCli, with captured streams. */
export async function runInProcess(
  args: readonly string[],
  options: InProcessOptions = {},
): Promise<CliResult> {
  const stdout = Object.assign(new PassThrough(), { isTTY: options.stdoutIsTTY ?? false, columns: 100 });
  const stderr = Object.assign(new PassThrough(), { isTTY: options.stderrIsTTY ?? false });
  const stdin = Object.assign(Readable.from(options.stdin === undefined ? [] : [options.stdin]), {
    isTTY: options.stdinIsTTY ?? options.stdin === undefined,
  });
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  stdout.on("data", (c: Buffer) => {
    out.push(c);
    options.onStdout?.(c.toString("utf8"));
  });
  stderr.on("data", (c: Buffer) => err.push(c));
  const deps: CliDeps = {
    env: { NO_COLOR: "1", ...options.env },
    cwd: process.cwd(),
    stdin,
    stdout,
    stderr,
    now: () => options.now ?? new Date(),
    embeddings: options.embeddings === undefined ? null : options.embeddings,
    generator: options.generator,
    confirm: options.confirm,
    stopSignal: options.stopSignal,
    importModule: (s) => import(s),
  };
  const code = await runCli(args, deps);
  return { code, stdout: Buffer.concat(out).toString("utf8"), stderr: Buffer.concat(err).toString("utf8") };
}

/** Runs the built binary (`node dist/bin.js <args>`) as a subprocess. */
export function runBinary(
  args: readonly string[],
  options: { stdin?: string; env?: Record<string, string>; command?: string[] } = {},
): Promise<CliResult> {
  const [cmd, ...pre] = options.command ?? [process.execPath, BIN];
  const child = spawn(cmd as string, [...pre, ...args], {
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? tmpdir(), NO_COLOR: "1", ...options.env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout.on("data", (c: Buffer) => out.push(c));
  child.stderr.on("data", (c: Buffer) => err.push(c));
  child.stdin.end(options.stdin ?? "");
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) =>
      resolve({
        code: code ?? -1,
        stdout: Buffer.concat(out).toString("utf8"),
        stderr: Buffer.concat(err).toString("utf8"),
      }),
    );
  });
}
