import type { MemoryCategory, SearchMode } from "@claw/memory-api";
import { MemoryError } from "@claw/memory-api";
import type { CliContext } from "../cli-context.js";
import { UsageError } from "../exit-codes.js";
import { renderEntries, renderEntry } from "../output/render-entries.js";
import { renderExplanations } from "../output/render-explain.js";
import {
  integerOption,
  listOption,
  metadataOption,
  numberOption,
  readAll,
  timeOption,
  whereOption,
} from "./parse-options.js";

export interface StoreOptions {
  category?: string;
  namespace?: string;
  session?: string;
  importance?: string;
  context?: string;
  checkConflicts?: boolean;
  /** `--meta key=value`, repeated. */
  meta?: string[];
  /** `--metadata '<json object>'`. */
  metadata?: string;
  /** `--ttl 7d`: expires this long from now (the library reads and checks the age). */
  ttl?: string;
  /** `--expires-at <RFC 3339>`: expires then (the library checks it is a time in the future). */
  expiresAt?: string;
}

export async function storeCommand(
  ctx: CliContext,
  key: string,
  content: string | undefined,
  opts: StoreOptions,
) {
  let text = content;
  if (text === undefined) {
    if (ctx.deps.stdin.isTTY) throw new UsageError("give the content as an argument or on stdin");
    text = (await readAll(ctx.deps.stdin)).replace(/\r?\n$/, "");
  }
  const importance = numberOption(opts.importance, "--importance");
  const metadata = metadataOption(opts.metadata, opts.meta);
  const memory = await ctx.memory();
  const options = {
    category: opts.category,
    namespace: opts.namespace,
    sessionId: opts.session,
    importance,
    context: opts.context,
    metadata,
    ttl: opts.ttl,
    expiresAt: opts.expiresAt,
  };
  if (opts.checkConflicts) {
    const { storeWithConflictCheck } = await import("@claw/memory-lifecycle");
    const { entry, superseded } = await storeWithConflictCheck(memory, key, text, options);
    ctx.result({ ...entry, superseded }, () =>
      [
        `stored ${ctx.colors.bold(entry.key)} (${entry.category}, ${entry.namespace})`,
        ...superseded.map((k) => `superseded ${k}`),
      ].join("\n"),
    );
    return;
  }
  const entry = await memory.store(key, text, options);
  ctx.result(entry, () => `stored ${ctx.colors.bold(entry.key)} (${entry.category}, ${entry.namespace})`);
}

export async function getCommand(ctx: CliContext, key: string, opts: { namespace?: string }) {
  const memory = await ctx.memory("none");
  const entry = await memory.get(key, { namespace: opts.namespace });
  if (entry === null) {
    throw new MemoryError(
      "NOT_FOUND",
      `no memory with key ${JSON.stringify(key)} in namespace ${opts.namespace ?? "default"}`,
    );
  }
  ctx.result(entry, () => renderEntry(entry, ctx.deps.now(), ctx.colors));
}

export interface RecallOptions {
  limit?: string;
  mode?: string;
  namespace?: string;
  session?: string;
  since?: string;
  until?: string;
  category?: string[];
  minScore?: string;
  includeSuperseded?: boolean;
  asOf?: string;
  /** `--where`, repeated: JSON or field=value pairs. */
  where?: string[];
  explain?: boolean;
}

const MODES = ["hybrid", "embedding", "bm25"];

export async function recallCommand(ctx: CliContext, query: string, opts: RecallOptions) {
  if (opts.mode !== undefined && !MODES.includes(opts.mode))
    throw new UsageError(`--mode expects hybrid, embedding or bm25, got ${JSON.stringify(opts.mode)}`);
  const now = ctx.deps.now();
  const request = {
    limit: integerOption(opts.limit, "--limit"),
    mode: opts.mode as SearchMode | undefined,
    namespace: opts.namespace,
    sessionId: opts.session,
    since: await timeOption(opts.since, "--since", now),
    until: await timeOption(opts.until, "--until", now),
    categories: listOption(opts.category) as MemoryCategory[] | undefined,
    minScore: numberOption(opts.minScore, "--min-score"),
    includeSuperseded: opts.includeSuperseded,
    now: await timeOption(opts.asOf, "--as-of", now),
    where: whereOption(opts.where),
    explain: opts.explain === true,
  };
  const memory = await ctx.memory(opts.mode === "bm25" ? "none" : "resolve");
  const hits = await memory.recall(query, request);
  ctx.result(
    hits,
    () =>
      renderEntries(hits, now, ctx.colors, ctx.deps.stdout.columns ?? 120) +
      (request.explain ? renderExplanations(hits, ctx.colors) : ""),
  );
}

export interface ListOptions {
  namespace?: string;
  category?: string;
  session?: string;
  limit?: string;
  offset?: string;
  where?: string[];
}

export async function listCommand(ctx: CliContext, opts: ListOptions) {
  const memory = await ctx.memory("none");
  const entries = await memory.list({
    namespace: opts.namespace,
    category: opts.category,
    sessionId: opts.session,
    limit: integerOption(opts.limit, "--limit"),
    offset: integerOption(opts.offset, "--offset", 0),
    where: whereOption(opts.where),
  });
  ctx.result(entries, () =>
    renderEntries(entries, ctx.deps.now(), ctx.colors, ctx.deps.stdout.columns ?? 120),
  );
}

export async function forgetCommand(ctx: CliContext, key: string, opts: { namespace?: string }) {
  const memory = await ctx.memory("none");
  const removed = await memory.forget(key, { namespace: opts.namespace });
  if (!removed) {
    throw new MemoryError(
      "NOT_FOUND",
      `no memory with key ${JSON.stringify(key)} in namespace ${opts.namespace ?? "default"}`,
    );
  }
  ctx.result({ key, removed }, () => `forgot ${ctx.colors.bold(key)}`);
}

export async function purgeCommand(
  ctx: CliContext,
  opts: { namespace?: string; session?: string; yes?: boolean },
) {
  if ((opts.namespace === undefined) === (opts.session === undefined))
    throw new UsageError("purge needs exactly one of --namespace or --session");
  const what = opts.namespace !== undefined ? `namespace ${opts.namespace}` : `session ${opts.session}`;
  if (!opts.yes) {
    if (!ctx.deps.stdin.isTTY || ctx.deps.confirm === undefined)
      throw new UsageError(`purging deletes every memory of the ${what}: pass --yes to confirm`);
    if (!(await ctx.deps.confirm(`Delete every memory of the ${what}?`))) {
      ctx.result({ purged: 0, cancelled: true }, () => "cancelled");
      return;
    }
  }
  const memory = await ctx.memory("none");
  const purged =
    opts.namespace !== undefined
      ? await memory.purgeNamespace(opts.namespace)
      : await memory.purgeSession(opts.session as string);
  ctx.result({ purged }, () => `purged ${purged} memories of the ${what}`);
}
