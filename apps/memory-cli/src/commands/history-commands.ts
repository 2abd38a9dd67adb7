import { MemoryError } from "@claw/memory-api";
import type { CliContext } from "../cli-context.js";
import { renderHistory } from "../output/render-history.js";
import { integerOption } from "./parse-options.js";

export interface HistoryOptions {
  namespace?: string;
  limit?: string;
}

/**
 * `history <key>`: every kept version of the entry, newest first (also after it was forgotten or
 * expired): what changed, when, by whom. A key that never existed is NOT_FOUND (exit 3), as `get`.
 */
export async function historyCommand(ctx: CliContext, key: string, opts: HistoryOptions) {
  const limit = integerOption(opts.limit, "--limit");
  const memory = await ctx.memory("none");
  const versions = await memory.history(key, { namespace: opts.namespace, limit });
  if (versions.length === 0) {
    throw new MemoryError(
      "NOT_FOUND",
      `no history for key ${JSON.stringify(key)} in namespace ${opts.namespace ?? "default"}`,
    );
  }
  ctx.result(versions, () => renderHistory(versions, ctx.colors, ctx.deps.stdout.columns ?? 120));
}

/**
 * `restore <key> <version>`: makes that version current again, as a new "restore" version (also
 * after a forget). A version that is not kept is NOT_FOUND (exit 3); a tombstone or a version that
 * is not a whole number ≥ 1 is INVALID_INPUT on `version` (exit 2).
 */
export async function restoreCommand(
  ctx: CliContext,
  key: string,
  version: string,
  opts: { namespace?: string },
) {
  const number = versionOf(version);
  // The restored content is embedded like a stored one.
  const memory = await ctx.memory();
  const entry = await memory.restore(key, number, { namespace: opts.namespace });
  ctx.result(
    entry,
    () =>
      `restored ${ctx.colors.bold(entry.key)} to version ${number} (${entry.category}, ${entry.namespace})`,
  );
}

/**
 * The <version> argument as a number: digits are passed on for the library to check (0 is refused
 * there, with the same message); anything else is refused here, naming `version` the same way.
 */
function versionOf(text: string): number {
  if (!/^\d+$/.test(text.trim()))
    throw MemoryError.invalidInput("version", `expected a whole number ≥ 1, got ${JSON.stringify(text)}`);
  return Number(text);
}

/** `purge-expired`: deletes every entry whose expiry has passed, each leaving an "expire" version. */
export async function purgeExpiredCommand(ctx: CliContext) {
  const memory = await ctx.memory("none");
  const removed = await memory.purgeExpired();
  ctx.result({ removed }, () => `deleted ${removed} expired ${removed === 1 ? "memory" : "memories"}`);
}
