// `backup FILE` and `restore FILE [--force]`; `restore <key> <version>` (two arguments) stays the
// history restore of one memory (history-commands.ts).
import { open } from "node:fs/promises";
import { join, resolve } from "node:path";
import { MemoryError } from "@claw/memory-api";
import type { CliContext } from "../cli-context.js";
import { UsageError } from "../exit-codes.js";
import type { Progress } from "../output/progress.js";
import { restoreCommand as restoreVersionCommand } from "./history-commands.js";
import { restoreNdjson } from "./restore-ndjson.js";

/** Progress on stderr while the work runs, only on a terminal (a log or a pipe gets the result only). */
export function terminalProgress(ctx: CliContext, label: string): Progress | undefined {
  return ctx.deps.stderr.isTTY === true ? ctx.progress(label) : undefined;
}

/**
 * `backup FILE`: a consistent copy of the whole store while it stays in use (SQLite: a database
 * file, integrity-checked; PostgreSQL: NDJSON of every entry with its vector, then every version of
 * every key as a `{"history": …}` line), written to a temp file and renamed onto FILE.
 */
export async function backupCommand(ctx: CliContext, file: string) {
  const path = resolve(ctx.deps.cwd, file);
  // The copy carries the vectors as they are: no provider is needed to take it.
  const memory = await ctx.memory("none");
  const progress = terminalProgress(ctx, "backup");
  const report = await memory.backup(
    path,
    progress === undefined ? {} : { onProgress: ({ done, total }) => progress.update(done, total) },
  );
  progress?.finish();
  const versions =
    report.versions === undefined
      ? ""
      : ` and ${report.versions} ${report.versions === 1 ? "version" : "versions"} of their history`;
  ctx.result(
    report,
    () =>
      `backed up ${report.entries} ${plural(report.entries)}${versions} to ${report.path} (${report.bytes} bytes)`,
  );
}

export interface RestoreOptions {
  namespace?: string;
  force?: boolean;
}

/** `restore FILE [--force]` restores the store from a backup; `restore <key> <version>` one memory's version. */
export async function restoreCommand(
  ctx: CliContext,
  target: string,
  version: string | undefined,
  opts: RestoreOptions,
) {
  if (version !== undefined) {
    if (opts.force === true)
      throw new UsageError("--force goes with `restore FILE` (a backup), not `restore <key> <version>`");
    return restoreVersionCommand(ctx, target, version, { namespace: opts.namespace });
  }
  if (opts.namespace !== undefined) {
    throw new UsageError(
      "--namespace goes with `restore <key> <version>`; `restore FILE` restores every namespace",
    );
  }
  return restoreStoreCommand(ctx, resolve(ctx.deps.cwd, target), opts.force === true);
}

/**
 * The store replaced by (SQLite) or imported from (PostgreSQL, with the history the file carries)
 * the backup `file`. A store that holds entries is refused (CONFLICT) unless `force`.
 */
async function restoreStoreCommand(ctx: CliContext, file: string, force: boolean) {
  const config = await ctx.loadConfig();
  if (config.memory.backend === "postgres")
    return restoreNdjson(ctx, file, force, terminalProgress(ctx, "restore"));
  if (config.memory.backend === "none")
    throw new MemoryError("UNAVAILABLE", 'backend = "none" keeps no store to restore into');
  ctx.assertWorkspaceExists();
  await refuseNdjson(file);
  const { restoreSqliteStore } = await import("@claw/memory-core");
  // No Memory is open on the workspace: the database is replaced while nothing uses it.
  const report = await restoreSqliteStore({ file, dbPath: join(ctx.workspaceDir, "brain.db"), force });
  ctx.result({ file, ...report }, () => {
    const lines = [`restored ${report.entries} ${plural(report.entries)} from ${file} into ${report.path}`];
    if (report.replaced !== undefined) {
      const { entries } = report.replaced;
      const held = entries === null ? "unreadable" : `${entries} ${plural(entries)}`;
      lines.push(`the replaced store (${held}) is kept as ${report.replaced.path}`);
    }
    return lines.join("\n");
  });
}

/**
 * A file that starts as JSON is the NDJSON of a PostgreSQL backup or an export, which a SQLite store
 * does not restore (its own backups are database files, history included): INVALID_INPUT saying to
 * import its entries instead.
 */
async function refuseNdjson(file: string): Promise<void> {
  const handle = await open(file, "r").catch(() => null);
  if (handle === null) return; // missing or unreadable: restoreSqliteStore says which
  try {
    const { bytesRead, buffer } = await handle.read(Buffer.alloc(256), 0, 256, 0);
    const start = buffer.subarray(0, bytesRead).toString("utf8").trimStart();
    if (start.startsWith("{") || start.startsWith("[")) {
      throw MemoryError.invalidInput(
        "file",
        `${file} is JSON (the NDJSON of a PostgreSQL backup, or an export), and this store is SQLite: \`claw-memory import ${file}\` brings its entries in (a PostgreSQL backup's history lines are skipped: only a PostgreSQL store takes them back)`,
      );
    }
  } finally {
    await handle.close();
  }
}

function plural(n: number): string {
  return n === 1 ? "memory" : "memories";
}
