// Decides, file by file, what a sync must write: nothing, a file's new entries, a move, a removal.
import { readFile } from "node:fs/promises";
import type { Logger } from "@claw/memory-api";
import { contentHash } from "@claw/memory-core";
import { type RefusedFile, type ScannedFile, scanWorkspace } from "../files/scan-workspace.js";
import {
  linesAppended,
  scanTranscripts,
  type TranscriptFile,
  transcriptEntries,
} from "../sessions/session-transcripts.js";
import type { ResolvedOptions } from "../workspace-options.js";
import { fileEntries, type IndexedEntry } from "./file-entries.js";
import type { FileRecord, Manifest } from "./manifest.js";

/** A file modified less than this long before it was hashed may change again within the same
 *  mtime tick (2 s on FAT), so its size + mtime alone never vouch for it. */
const STABLE_AFTER_MS = 2_000;

export type Origin = "files" | "sessions";

export interface Change {
  origin: Origin;
  path: string;
  /** The record of the last sync, if the file was indexed before. */
  prev?: FileRecord;
  record: FileRecord;
  entries: IndexedEntry[];
  /** Set for a file whose content an indexed file that disappeared had: its entries move here. */
  movedFrom?: string;
}

export interface SyncPlan {
  /** Files to (re)write, in path order. */
  changes: Change[];
  /** Records kept as they are (maybe with fresher stat data), by origin and path. */
  kept: Record<Origin, Record<string, FileRecord>>;
  /** Indexed files that are gone (moves excluded), with their records. */
  deleted: Array<{ origin: Origin; path: string; record: FileRecord }>;
  /** Paths that could not be read: whatever they have in the index stays. */
  unreadable: Set<string>;
  errors: Array<{ path: string; message: string }>;
  /** Memory files not indexed because of where their links lead (their old entries go). */
  refused: RefusedFile[];
  /** Kept records whose stat data changed, so the manifest needs saving even with no change. */
  refreshed: number;
}

/**
 * Scans the workspace (and transcripts), reads what may have changed and builds its entries.
 * With `reconcile`, the manifest is not trusted: every file is read and rebuilt.
 */
export async function planSync(
  options: ResolvedOptions,
  manifest: Manifest | null,
  reconcile: boolean,
): Promise<SyncPlan> {
  const plan: SyncPlan = {
    changes: [],
    kept: { files: {}, sessions: {} },
    deleted: [],
    unreadable: new Set(),
    errors: [],
    refused: [],
    refreshed: 0,
  };
  const trusted = reconcile ? null : manifest;
  const { files, refused } = await scanWorkspace(options.workspaceDir, options.extraPaths, options.logger);
  plan.refused = refused;
  for (const file of files) await planFile(plan, options, file, trusted?.files[file.path]);
  const transcripts = options.sessions === null ? [] : await scanTranscripts(options.sessions.dir);
  for (const file of transcripts) await planTranscript(plan, options, file, trusted, reconcile);

  for (const origin of ["files", "sessions"] as const) {
    const present = new Set((origin === "files" ? files : transcripts).map((f) => f.path));
    for (const [path, record] of Object.entries(manifest?.[origin] ?? {})) {
      if (!present.has(path)) plan.deleted.push({ origin, path, record });
    }
  }
  if (!reconcile) pairMoves(plan);
  return plan;
}

async function planFile(plan: SyncPlan, options: ResolvedOptions, file: ScannedFile, prev?: FileRecord) {
  if (prev !== undefined && statVouches(prev, file)) {
    plan.kept.files[file.path] = prev;
    return;
  }
  const read = await readText(plan, file.path, file.absPath);
  if (read === null) {
    if (prev !== undefined) plan.kept.files[file.path] = prev;
    return;
  }
  const record: FileRecord = { ...read.stamp, size: file.size, mtimeMs: file.mtimeMs, keys: [] };
  if (prev !== undefined && prev.hash === record.hash) {
    plan.kept.files[file.path] = { ...prev, ...record, keys: prev.keys };
    plan.refreshed++;
    return;
  }
  const built = fileEntries(file, read.text, options);
  for (const note of built.notes) options.logger.debug(`workspace: ${note}`);
  record.keys = built.entries.map((e) => e.key);
  plan.changes.push({ origin: "files", path: file.path, prev, record, entries: built.entries });
}

/** A transcript is re-indexed once it grew past a delta threshold (seed 004: ~100 KB or 50 lines). */
async function planTranscript(
  plan: SyncPlan,
  options: ResolvedOptions,
  file: TranscriptFile,
  manifest: Manifest | null,
  everything: boolean,
) {
  const sessions = options.sessions as NonNullable<ResolvedOptions["sessions"]>;
  const prev = manifest?.sessions[file.path];
  if (prev !== undefined && prev.size === file.size && prev.mtimeMs === file.mtimeMs) {
    plan.kept.sessions[file.path] = prev;
    return;
  }
  if (!everything && (prev === undefined || file.size > prev.size)) {
    const from = prev?.size ?? 0;
    const lines = await linesAppended(file.absPath, from).catch(() => 0);
    if (file.size - from < sessions.deltaBytes && lines < sessions.deltaMessages) {
      if (prev !== undefined) plan.kept.sessions[file.path] = prev;
      return;
    }
  }
  const read = await readText(plan, file.path, file.absPath);
  if (read === null) {
    if (prev !== undefined) plan.kept.sessions[file.path] = prev;
    return;
  }
  const built = transcriptEntries(file, read.text, options);
  const record: FileRecord = {
    ...read.stamp,
    size: Buffer.byteLength(read.text),
    mtimeMs: file.mtimeMs,
    keys: built.entries.map((e) => e.key),
    lines: built.lines,
  };
  plan.changes.push({ origin: "sessions", path: file.path, prev, record, entries: built.entries });
}

function statVouches(prev: FileRecord, file: ScannedFile): boolean {
  return (
    prev.hash !== "" &&
    prev.size === file.size &&
    prev.mtimeMs === file.mtimeMs &&
    file.mtimeMs < prev.checkedAt - STABLE_AFTER_MS
  );
}

async function readText(
  plan: SyncPlan,
  path: string,
  absPath: string,
): Promise<{ text: string; stamp: { hash: string; checkedAt: number } } | null> {
  // Wall-clock time, not the injected clock: it is compared with the file system's mtimes.
  const checkedAt = Date.now();
  try {
    const text = await readFile(absPath, "utf8");
    return { text, stamp: { hash: contentHash(text), checkedAt } };
  } catch (error) {
    // Gone between the scan and the read: the next sync sees it as deleted.
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    plan.unreadable.add(path);
    plan.errors.push({ path, message: (error as Error).message });
    return null;
  }
}

/** A new file with the content of a deleted one is that file renamed: its entries move with it. */
function pairMoves(plan: SyncPlan): void {
  for (const change of plan.changes) {
    if (change.prev !== undefined || change.origin !== "files") continue;
    const index = plan.deleted.findIndex(
      (d) => d.origin === "files" && d.record.hash !== "" && d.record.hash === change.record.hash,
    );
    if (index === -1) continue;
    const [moved] = plan.deleted.splice(index, 1);
    change.movedFrom = moved?.path;
    change.prev = moved?.record;
  }
}

export function logUnreadable(logger: Logger, plan: SyncPlan): void {
  for (const error of plan.errors)
    logger.warn("workspace: cannot read a memory file; its entries are kept", { ...error });
}
