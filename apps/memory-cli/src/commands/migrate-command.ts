import type { Memory } from "@claw/memory-api";
import { CLI_ACTOR, type CliContext } from "../cli-context.js";
import { UsageError } from "../exit-codes.js";
import { integerOption } from "./parse-options.js";

const BACKENDS = ["sqlite", "postgres"] as const;
type Backend = (typeof BACKENDS)[number];

export interface MigrateOptions {
  from?: string;
  to?: string;
  pgUrl?: string;
  batchSize?: string;
}

/**
 * `migrate --from sqlite --to postgres` (or back): copies every entry of the workspace's store on
 * one backend into the other, with ids, timestamps and vectors, batch by batch (an interrupted run
 * resumes), then checks that every entry arrived. Hygiene and snapshots do not run meanwhile.
 */
export async function migrateCommand(ctx: CliContext, opts: MigrateOptions) {
  const from = backendOf(opts.from, "--from");
  const to = backendOf(opts.to, "--to");
  if (from === to) throw new UsageError("--from and --to must name different backends");
  const config = await ctx.loadConfig();
  const postgres = { ...config.postgres, url: opts.pgUrl ?? config.postgres.url };
  if (postgres.url === undefined)
    throw new UsageError("migrate needs a PostgreSQL URL: --pg-url, CLAW_MEMORY_PG_URL or [postgres] url");
  const { createMemory, migrateMemory } = await import("@claw/memory-core");
  const open = (backend: Backend): Promise<Memory> =>
    createMemory({
      workspaceDir: ctx.workspaceDir,
      config: { ...config, postgres, memory: { ...config.memory, backend, backfillOnStartup: false } },
      embeddings: ctx.deps.embeddings,
      logger: ctx.logger,
      importModule: ctx.deps.importModule,
      strict: true,
      actor: CLI_ACTOR,
    });
  const source = await open(from);
  ctx.onClose(() => source.close());
  const target = await open(to);
  ctx.onClose(() => target.close());
  const progress = ctx.progress("migrate");
  const report = await migrateMemory(source, target, {
    batchSize: integerOption(opts.batchSize, "--batch-size"),
    onProgress: (done, total) => progress.update(done, total),
  });
  progress.finish();
  ctx.result(
    { from, to, ...report },
    () =>
      `migrated ${report.total} memories from ${from} to ${to} (${report.copied} copied, ${report.skipped} already there); every entry checked`,
  );
}

function backendOf(value: string | undefined, option: string): Backend {
  if (value === undefined || !(BACKENDS as readonly string[]).includes(value))
    throw new UsageError(`${option} expects sqlite or postgres, got ${JSON.stringify(value)}`);
  return value as Backend;
}
