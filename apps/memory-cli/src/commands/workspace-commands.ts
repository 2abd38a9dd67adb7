import type { SearchHit, SyncReport, WorkspaceIndex } from "@claw/memory-workspace";
import type { CliContext } from "../cli-context.js";
import { UsageError } from "../exit-codes.js";
import { relativeTime } from "../output/relative-time.js";
import { formatScore } from "../output/render-entries.js";
import { renderTable } from "../output/table.js";
import { integerOption, listOption, numberOption } from "./parse-options.js";

/** The workspace index over the memory of this run (MEMORY.md, memory/, bank/ in the workspace). */
async function workspaceIndex(ctx: CliContext, namespace?: string): Promise<WorkspaceIndex> {
  const memory = await ctx.memory();
  const { createWorkspaceIndex } = await import("@claw/memory-workspace");
  const index = createWorkspaceIndex(memory, ctx.workspaceDir, {
    namespace,
    logger: ctx.logger,
    now: ctx.deps.now,
  });
  ctx.onClose(() => index.close());
  return index;
}

function syncSummary(report: SyncReport): string {
  const changed = [
    report.added > 0 ? `${report.added} added` : "",
    report.updated > 0 ? `${report.updated} updated` : "",
    report.moved > 0 ? `${report.moved} moved` : "",
    report.removed > 0 ? `${report.removed} removed` : "",
  ].filter((s) => s !== "");
  const errors = report.errors.map((e) => `\n  ${e.path}: ${e.message}`).join("");
  const refused = report.refused.map((r) => `\n  refused ${r.path}: ${r.reason}`).join("");
  return `synced ${report.files} files (${changed.join(", ") || "no changes"}; ${report.unchanged} unchanged) in ${Math.round(report.durationMs)} ms${errors}${refused}`;
}

export async function syncCommand(ctx: CliContext, opts: { full?: boolean; namespace?: string }) {
  const index = await workspaceIndex(ctx, opts.namespace);
  const report = await index.sync({ full: opts.full });
  ctx.result(report, () => syncSummary(report));
}

/** `watch`: one sync now, then one per burst of edits, until Ctrl-C (or stdin closes for --json consumers). */
export async function watchCommand(ctx: CliContext, opts: { namespace?: string; debounce?: string }) {
  const index = await workspaceIndex(ctx, opts.namespace);
  const report = (r: SyncReport) => ctx.result(r, () => `${new Date().toISOString()} ${syncSummary(r)}`);
  // Watch first: an edit made while the first sync runs is then caught by the next one.
  const watcher = index.watch({
    debounceMs: integerOption(opts.debounce, "--debounce", 0),
    onSync: report,
    onError: (error) => ctx.logger.error(`sync failed: ${(error as Error).message}`),
  });
  report(await index.sync());
  ctx.logger.info(`watching ${ctx.workspaceDir}`);
  await (ctx.deps.stopSignal?.() ?? new Promise<void>(() => {}));
  await watcher.close();
}

export interface SearchOptions {
  limit?: string;
  entity?: string;
  kind?: string;
  since?: string;
  until?: string;
  category?: string[];
  minScore?: string;
  namespace?: string;
  sync?: boolean;
}

const KINDS = ["world", "experience", "opinion", "observation"];

export async function searchCommand(ctx: CliContext, query: string, opts: SearchOptions) {
  if (opts.kind !== undefined && !KINDS.includes(opts.kind))
    throw new UsageError(`--kind expects one of ${KINDS.join(", ")}, got ${JSON.stringify(opts.kind)}`);
  const index = await workspaceIndex(ctx, opts.namespace);
  // A one-shot search first brings the index up to date with the files (cheap when nothing changed).
  if (opts.sync !== false) await index.sync();
  const hits = await index.search(query, {
    limit: integerOption(opts.limit, "--limit"),
    entity: opts.entity,
    kind: opts.kind as "world" | undefined,
    since: opts.since,
    until: opts.until,
    categories: listOption(opts.category),
    minScore: numberOption(opts.minScore, "--min-score"),
  });
  const now = ctx.deps.now();
  ctx.result(hits, () => renderHits(hits, now, ctx.deps.stdout.columns ?? 120));
}

function renderHits(hits: readonly SearchHit[], now: Date, width: number): string {
  if (hits.length === 0) return "(no hits)";
  return renderTable(
    hits,
    [
      { header: "SCORE", value: (h) => formatScore(h.score), align: "right" },
      {
        header: "WHERE",
        value: (h) => (h.path === undefined ? h.key : `${h.path}:${h.startLine}-${h.endLine}`),
      },
      { header: "WHEN", value: (h) => relativeTime(h.timestamp, now) },
      { header: "SNIPPET", value: (h) => h.snippet, flexible: true },
    ],
    width,
  );
}

export async function readCommand(ctx: CliContext, path: string, opts: { from?: string; lines?: string }) {
  const index = await workspaceIndex(ctx);
  const result = await index.read(path, {
    from: integerOption(opts.from, "--from"),
    lines: integerOption(opts.lines, "--lines"),
  });
  if (ctx.json) ctx.result(result, () => "");
  else
    ctx.deps.stdout.write(
      result.text.endsWith("\n") || result.text === "" ? result.text : `${result.text}\n`,
    );
}

export async function reflectCommand(ctx: CliContext, opts: { since?: string }) {
  const index = await workspaceIndex(ctx);
  const report = await index.reflect({ since: opts.since });
  ctx.result(report, () =>
    [
      `${report.facts} facts about ${report.entities} entities, ${report.opinions} opinions`,
      ...report.written.map((p) => `wrote ${p}`),
    ].join("\n"),
  );
}

export async function entityCommand(ctx: CliContext, name: string, opts: { sync?: boolean }) {
  const index = await workspaceIndex(ctx);
  if (opts.sync !== false) await index.sync();
  const summary = await index.entitySummary(name);
  ctx.result(summary, () => {
    const line = (f: { date: string; text: string; confidence?: number; path: string; startLine: number }) =>
      `  ${f.date}  ${f.text}${f.confidence === undefined ? "" : ` (c=${f.confidence})`}  ${f.path}:${f.startLine}`;
    return [
      `# ${summary.name}`,
      `facts (${summary.facts.length}):`,
      ...summary.facts.map(line),
      `opinions (${summary.opinions.length}):`,
      ...summary.opinions.map(line),
    ].join("\n");
  });
}
