import type { Memory } from "@claw/memory-api";
import { MemoryError } from "@claw/memory-api";
import type { CliContext } from "../cli-context.js";
import { integerOption } from "./parse-options.js";

export async function statusCommand(ctx: CliContext, opts: { deep?: boolean } = {}) {
  const memory = await ctx.memory();
  const stored = await memory.status();
  // A server started from this config would hold a plaintext token: said here as well as by the server.
  const { plaintextTokenWarnings } = await import("@claw/memory-core");
  const tokenWarnings = plaintextTokenWarnings((await ctx.loadConfig()).server);
  const status =
    tokenWarnings.length === 0
      ? stored
      : { ...stored, warnings: [...(stored.warnings ?? []), ...tokenWarnings] };
  const deep = opts.deep === true ? await deepChecks(memory) : undefined;
  // Memory files a link makes unsafe to index (the config, a dotfile, …): sync refuses them.
  const { createWorkspaceIndex } = await import("@claw/memory-workspace");
  const index = createWorkspaceIndex(memory, ctx.workspaceDir, { logger: ctx.logger, now: ctx.deps.now });
  const refused = await index.refused().finally(() => index.close());
  ctx.result(
    {
      workspace: ctx.workspaceDir,
      ...status,
      refusedFiles: refused,
      ...(deep ? { checks: deep.checks } : {}),
    },
    () => {
      const rows: Array<[string, string]> = [
        ["workspace", ctx.workspaceDir],
        ["backend", status.backend],
        ["database", status.path ?? "-"],
        ["size", status.sizeBytes === undefined ? "-" : formatBytes(status.sizeBytes)],
        ["entries", String(status.entries)],
        ["namespaces", String(status.namespaces)],
        [
          "embeddings",
          status.embedding === null
            ? `none (keyword-only${status.embeddingUnavailableReason ? `: ${status.embeddingUnavailableReason}` : ""})`
            : `${status.embedding.provider} ${status.embedding.model} (${status.embedding.dimensions} dims)`,
        ],
        ["vector search", status.vector],
        ["missing vectors", String(status.missingEmbeddings)],
        ["pending vectors", String(status.pendingEmbeddings)],
        ["full-text", status.fts ? (status.ftsEngine ?? "on") : "off"],
        ["schema", `v${status.schemaVersion}`],
        ...(deep === undefined
          ? []
          : ([
              ["database check", deep.checks.database],
              ["provider check", deep.checks.provider],
            ] as Array<[string, string]>)),
      ];
      const width = Math.max(...rows.map(([k]) => k.length));
      const lines = rows.map(([k, v]) => `${ctx.colors.dim(k.padEnd(width))}  ${v}`);
      for (const warning of status.warnings ?? []) lines.push(`${ctx.colors.yellow("warning:")} ${warning}`);
      for (const file of refused) lines.push(`${ctx.colors.yellow("refused:")} ${file.path}: ${file.reason}`);
      return lines.join("\n");
    },
  );
  // Reported above; the exit status says it too (with the failure's own hint).
  if (deep?.failure !== undefined) throw deep.failure;
  if (status.corrupt !== undefined) throw new MemoryError("CORRUPT", "status: the database is damaged");
}

/**
 * `status --deep`: the database answers a query, and the configured provider embeds one text.
 * Keyword-only (no provider configured) is not a failure.
 */
async function deepChecks(memory: Memory): Promise<{
  checks: { database: string; provider: string };
  failure?: unknown;
}> {
  let failure: unknown;
  const database = (await memory.healthCheck()) ? "ok" : "failed: the database did not answer";
  if (database !== "ok") failure = new MemoryError("STORAGE", `status --deep: ${database}`);
  let provider: string;
  try {
    const vectors = await memory.embed?.(["claw-memory status check"], { purpose: "query" });
    provider = vectors == null ? "none (keyword-only)" : `ok (${vectors[0]?.length ?? 0} dimensions)`;
  } catch (error) {
    provider = `failed: ${(error as Error).message}`;
    failure ??= error;
  }
  return { checks: { database, provider }, ...(failure === undefined ? {} : { failure }) };
}

export async function reindexCommand(ctx: CliContext) {
  const memory = await ctx.memory();
  const progress = ctx.progress("reindex");
  const written = await memory.reindex({ onProgress: (done, total) => progress.update(done, total) });
  progress.finish();
  ctx.result({ reindexed: written }, () => `re-embedded ${written} memories`);
}

export async function backfillCommand(ctx: CliContext, opts: { batchSize?: string }) {
  const memory = await ctx.memory();
  const progress = ctx.progress("backfill");
  const written = await memory.backfillEmbeddings(integerOption(opts.batchSize, "--batch-size"), {
    onProgress: (done, total) => progress.update(done, total),
  });
  progress.finish();
  ctx.result({ embedded: written }, () => `embedded ${written} memories`);
}

export async function hygieneCommand(ctx: CliContext, opts: { force?: boolean }) {
  const memory = await ctx.memory("none");
  const { runHygiene } = await import("@claw/memory-lifecycle");
  const report = await runHygiene(memory, {
    force: opts.force,
    now: ctx.deps.now(),
    workspaceDir: ctx.workspaceDir,
  });
  ctx.result(report, () => {
    if (!report.ran) return `hygiene is not due yet (last run ${report.previousRunAt}); --force runs it now`;
    const pruned = Object.entries(report.pruned)
      .map(([category, n]) => `${n} ${category}`)
      .join(", ");
    const expired = report.expired > 0 ? `; ${report.expired} expired deleted` : "";
    return `hygiene pruned ${report.deletedKeys.length} memories (${pruned || "none"}); ${report.keptByFloor} kept by retention floors${expired}`;
  });
}

export async function snapshotCommand(ctx: CliContext) {
  const memory = await ctx.memory("none");
  const { exportSnapshot } = await import("@claw/memory-lifecycle");
  const result = await exportSnapshot(memory, ctx.workspaceDir);
  ctx.result(result, () =>
    result.written
      ? `wrote ${result.count} core memories to ${result.path}`
      : `no core memories: kept the existing ${result.path}`,
  );
}

export async function hydrateCommand(ctx: CliContext) {
  const memory = await ctx.memory();
  const { hydrateFromSnapshot } = await import("@claw/memory-lifecycle");
  const added = await hydrateFromSnapshot(memory, ctx.workspaceDir);
  ctx.result({ hydrated: added }, () => `added ${added} memories from the snapshot`);
}

function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 ** 2) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1024 ** 2).toFixed(1)} MiB`;
}
