import type { CliContext } from "../cli-context.js";
import { UsageError } from "../exit-codes.js";
import { integerOption, readAll } from "./parse-options.js";

export interface ConsolidateOptions {
  assistant?: string;
  session?: string;
  namespace?: string;
}

/** `consolidate [message]`: the turn's user message (or stdin), optionally the assistant's reply. */
export async function consolidateCommand(
  ctx: CliContext,
  message: string | undefined,
  opts: ConsolidateOptions,
) {
  let user = message;
  if (user === undefined) {
    if (ctx.deps.stdin.isTTY) throw new UsageError("give the user's message as an argument or on stdin");
    user = (await readAll(ctx.deps.stdin)).trim();
  }
  const memory = await ctx.memory();
  const { consolidateTurn } = await import("@claw/memory-lifecycle");
  const result = await consolidateTurn(
    memory,
    { user, assistant: opts.assistant, sessionId: opts.session },
    { namespace: opts.namespace, now: ctx.deps.now() },
  );
  ctx.result(result, () => {
    if (result.skipped !== undefined) return `nothing saved: ${result.skipped}`;
    const lines = [`daily  ${result.daily?.key}`];
    if (result.core !== null)
      lines.push(`core   ${result.core.key} (importance ${result.core.importance?.toFixed(2)})`);
    for (const key of result.superseded) lines.push(`superseded ${key}`);
    return lines.join("\n");
  });
}

export interface CurateCommandOptions {
  dryRun?: boolean;
  maxDeletions?: string;
  namespace?: string;
}

export async function curateCommand(ctx: CliContext, opts: CurateCommandOptions) {
  const generator = await ctx.generator();
  const memory = await ctx.memory();
  const { curate } = await import("@claw/memory-lifecycle");
  const report = await curate(memory, generator, {
    dryRun: opts.dryRun,
    maxDeletions: integerOption(opts.maxDeletions, "--max-deletions", 0),
    namespace: opts.namespace,
    now: ctx.deps.now(),
  });
  ctx.result(report, () => {
    const verb = report.dryRun ? "would" : "did";
    const lines = [
      `${report.dryRun ? "dry run: " : ""}${report.totalBefore} → ${report.totalAfter} memories`,
      ...report.deleted.map((k) => `${verb} delete ${k}`),
      ...report.merged.map((m) => `${verb} merge ${m.keys.join(", ")} into ${m.into}: ${m.content}`),
      ...report.refused.map((r) => ctx.colors.dim(`refused ${r}`)),
      ...report.errors.map((e) => ctx.colors.yellow(`error: ${e}`)),
    ];
    return lines.join("\n");
  });
}

export interface ContextOptions {
  namespace?: string;
  limit?: string;
  maxTokens?: string;
}

/**
 * `context <message>`: what an agent would put in its prompt for this message — the stable core
 * block (for the system prompt) and the `[memory context]` recall block (for the turn).
 */
export async function contextCommand(ctx: CliContext, message: string, opts: ContextOptions) {
  const memory = await ctx.memory();
  const { recallForTurn, stableMemoryBlock } = await import("@claw/memory-lifecycle");
  const stable = await stableMemoryBlock(memory, { namespace: opts.namespace });
  const recalled = await recallForTurn(memory, message, {
    namespace: opts.namespace,
    limit: integerOption(opts.limit, "--limit"),
    maxTokens: integerOption(opts.maxTokens, "--max-tokens"),
    exclude: stable.entries.map((e) => e.key),
  });
  ctx.result(
    {
      stable: { text: stable.text, hash: stable.hash, keys: stable.entries.map((e) => e.key) },
      recall: { text: recalled.text, keys: recalled.entries.map((e) => e.key) },
    },
    () =>
      [stable.text, recalled.text].filter((t) => t !== "").join("\n\n") || ctx.colors.dim("(nothing to add)"),
  );
}
