// One sync: manifest → plan → writes → probes → manifest, and the report of what it did.
import { performance } from "node:perf_hooks";
import type { Memory } from "@claw/memory-api";
import type { ResolvedOptions } from "../workspace-options.js";
import type { SyncReport } from "../workspace-types.js";
import { applyIncremental, type WriteTally } from "./apply-incremental.js";
import { applyReconcile } from "./apply-reconcile.js";
import {
  emptyManifest,
  type FileRecord,
  loadManifest,
  type Manifest,
  probesHold,
  saveManifest,
} from "./manifest.js";
import { logUnreadable, planSync, type SyncPlan } from "./plan-sync.js";

export interface SyncContext {
  memory: Memory;
  options: ResolvedOptions;
  /** Where the manifest lives and which database it describes. */
  manifest: { path: string; database: string };
}

/**
 * Incremental when the manifest matches the database: unchanged files are skipped (by size and
 * mtime, else by content hash) and nothing is written for them. Otherwise, or with `full`, the
 * entries are reconciled with what the files say.
 */
export async function syncWorkspace(context: SyncContext, full: boolean): Promise<SyncReport> {
  const started = performance.now();
  const { memory, options } = context;
  const { namespace, logger } = options;
  const manifest = await loadManifest(context.manifest.path, context.manifest.database, namespace, logger);
  const reconcile = full || manifest === null || !(await probesHold(memory, namespace, manifest));
  if (reconcile && manifest !== null && !full)
    logger.info("workspace: the database does not match the index manifest; reconciling every entry");
  const plan = await planSync(options, manifest, reconcile);
  logUnreadable(logger, plan);

  if (!reconcile && manifest !== null && plan.changes.length > 0) {
    // Written before the entries: a crash in between leaves a manifest that lists every key the
    // files may have and no hash, so the next sync rewrites them and removes what is stale.
    await saveManifest(context.manifest.path, inFlight(manifest, plan));
  }
  const tally = reconcile
    ? await applyReconcile(memory, namespace, plan)
    : await applyIncremental(memory, namespace, plan);

  const next = emptyManifest(context.manifest.database, namespace);
  Object.assign(next.files, plan.kept.files);
  Object.assign(next.sessions, plan.kept.sessions);
  for (const change of tally.written) next[change.origin][change.path] = change.record;
  await recordProbes(memory, namespace, tally, reconcile ? next : null);
  const dirty =
    reconcile ||
    tally.written.length > 0 ||
    plan.deleted.length > 0 ||
    plan.refreshed > 0 ||
    manifest === null;
  if (dirty) await saveManifest(context.manifest.path, next);

  const files = Object.keys(next.files).length + Object.keys(next.sessions).length;
  const report: SyncReport = {
    added: tally.added,
    updated: tally.updated,
    removed: tally.removed,
    moved: tally.moved,
    unchanged: files - tally.added - tally.updated - tally.moved,
    files,
    entriesWritten: tally.entriesWritten,
    entriesRemoved: tally.entriesRemoved,
    reconciled: reconcile,
    errors: plan.errors,
    refused: plan.refused,
    durationMs: Math.round((performance.now() - started) * 100) / 100,
  };
  logger.debug("workspace: synced", {
    ...report,
    errors: report.errors.length,
    refused: report.refused.length,
  });
  return report;
}

/** The manifest to leave behind while writing: changed files keyed by old and new keys, no hash. */
function inFlight(manifest: Manifest, plan: SyncPlan): Manifest {
  const pending: Manifest = {
    ...manifest,
    files: { ...manifest.files },
    sessions: { ...manifest.sessions },
  };
  for (const change of plan.changes) {
    const keys = [...new Set([...(change.prev?.keys ?? []), ...change.record.keys])];
    pending[change.origin][change.path] = { ...change.record, hash: "", keys };
  }
  return pending;
}

/**
 * Notes the id of each written file's first entry (every file's, after a reconcile), so the next
 * sync can tell that the database is still the one this manifest describes.
 */
async function recordProbes(memory: Memory, namespace: string, tally: WriteTally, all: Manifest | null) {
  const records: FileRecord[] = all
    ? [...Object.values(all.files), ...Object.values(all.sessions)]
    : tally.written.map((c) => c.record);
  for (const record of records) {
    const key = record.keys[0];
    if (key === undefined) continue;
    const entry = await memory.get(key, { namespace });
    if (entry !== null) record.probe = { key, id: entry.id };
  }
}
