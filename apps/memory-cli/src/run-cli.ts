import { CommanderError } from "commander";
import { buildProgram } from "./build-program.js";
import type { CliContext } from "./cli-context.js";
import type { CliDeps } from "./cli-deps.js";
import { codeOf, EXIT, exitCodeOf, hintOf } from "./exit-codes.js";
import { colorsFor } from "./output/colors.js";

/**
 * Runs one `claw-memory` invocation and returns its exit code: 0 ok, 1 failure, 2 usage, 3 not
 * found. Errors are reported here, once: a message and what to do next on stderr, and with --json
 * also `{ "error": { code, message } }` on stdout. The memory is always closed (draining deferred
 * embeddings) before returning.
 */
export async function runCli(argv: readonly string[], deps: CliDeps): Promise<number> {
  let ctx: CliContext | undefined;
  const program = buildProgram(deps, (c) => {
    ctx = c;
  });
  let code: number = EXIT.ok;
  try {
    await program.parseAsync([...argv], { from: "user" });
  } catch (error) {
    code = report(error, deps, ctx);
  }
  try {
    await ctx?.close();
  } catch (error) {
    if (code === EXIT.ok) code = report(error, deps, ctx);
  }
  return code;
}

function report(error: unknown, deps: CliDeps, ctx: CliContext | undefined): number {
  if (error instanceof CommanderError) {
    // Help and version "errors" are successes; commander has already printed its message.
    if (
      error.code === "commander.helpDisplayed" ||
      error.code === "commander.version" ||
      error.exitCode === 0
    )
      return EXIT.ok;
    return EXIT.usage;
  }
  const colors = colorsFor(deps.stderr.isTTY, deps.env);
  const message = error instanceof Error ? error.message : String(error);
  deps.stderr.write(`${colors.red("error:")} ${message}\n`);
  const hint = hintOf(error);
  if (hint !== undefined) deps.stderr.write(`${colors.dim(hint)}\n`);
  if (ctx?.json) deps.stdout.write(`${JSON.stringify({ error: { code: codeOf(error), message } })}\n`);
  if (ctx?.globals.verbose && error instanceof Error && error.stack) deps.stderr.write(`${error.stack}\n`);
  return exitCodeOf(error);
}
