// `claw-memory doctor` on a SQLite store: check (check-store.ts); `repair`, which rebuilds what is
// derived from the entries (the whole file, from its readable rows: a damaged index, full-text
// table or code table cannot be trusted to be dropped in place) and swaps it in only when no entry
// and no version was lost; `salvageTo`, which writes what can be read into a new store.
import { existsSync, renameSync, rmSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { MemoryError } from "@claw/memory-api";
import Database from "better-sqlite3";
import { storageFailure } from "../../storage-failure.js";
import { readDamageMarker, removeDamageMarker } from "../damage-watch.js";
import { checkStore, type DoctorCheck, SOURCE_TABLES } from "./check-store.js";
import { writeRebuiltStore } from "./rebuilt-store.js";
import { readSalvageable, type SalvageReport, salvageStore } from "./salvage-store.js";

export type { DoctorCheck, SalvageReport };

/** Options of doctorStore: check only (default), repair, or salvage to a new file. */
export interface DoctorOptions {
  /** Rebuild the derived parts (refused when entries are on damaged pages: salvage them instead). */
  repair?: boolean;
  /** Write every readable entry into a new store at this path. */
  salvageTo?: string;
}

/** What doctorStore found and did. */
export interface DoctorReport {
  path: string;
  /** True when every check passed (after the repair, when one ran). */
  ok: boolean;
  checks: DoctorCheck[];
  /** Whether a damage marker was found beside the database (a process saw CORRUPT). */
  marked: boolean;
  /** What the repair did: the rebuilt entries, and where the damaged file was kept. */
  repaired?: { entries: number; versions: number; keptAs: string };
  salvage?: SalvageReport;
}

/**
 * Checks the store at `path`, then repairs or salvages it as asked. Throws NOT_FOUND when there is no file.
 *
 * @example
 * ```ts
 * import { doctorStore } from "@claw/memory-core";
 *
 * const report = doctorStore("./my-agent/brain.db");
 * for (const check of report.checks) console.log(check.name, check.ok ? "ok" : check.detail);
 * if (!report.ok) doctorStore("./my-agent/brain.db", { repair: true });
 * ```
 */
export function doctorStore(path: string, options: DoctorOptions = {}): DoctorReport {
  if (!existsSync(path)) throw new MemoryError("NOT_FOUND", `no database at ${path}`);
  const marked = readDamageMarker(path) !== null;
  const checks = checkFile(path);
  const report: DoctorReport = { path, ok: checks.every((check) => check.ok), checks, marked };
  if (options.salvageTo !== undefined) report.salvage = salvageStore(path, options.salvageTo);
  if (options.repair === true) {
    if (!report.ok) {
      report.repaired = repairStore(path, checks);
      report.checks = checkFile(path);
      report.ok = report.checks.every((check) => check.ok);
    }
    // Whole again: writes are allowed from the next open on.
    if (report.ok) removeDamageMarker(path);
  }
  return report;
}

function checkFile(path: string): DoctorCheck[] {
  let db: Database.Database;
  try {
    db = new Database(path, { fileMustExist: true });
    db.prepare("SELECT count(*) FROM sqlite_schema").get();
  } catch (error) {
    const detail = storageFailure(error, "cannot be opened").message;
    return [{ name: "integrity", ok: false, detail, damaged: ["sqlite_schema"] }];
  }
  try {
    return checkStore(db);
  } finally {
    db.close();
  }
}

/**
 * Rebuilds the store from its readable rows into a new file beside it and swaps it in, keeping the
 * damaged one as `brain.db.before-repair`. CORRUPT (nothing changed) when a row could not be read.
 */
function repairStore(path: string, checks: DoctorCheck[]): NonNullable<DoctorReport["repaired"]> {
  const hitSource = (checks.find((check) => check.name === "integrity")?.damaged ?? []).filter((name) =>
    SOURCE_TABLES.has(name),
  );
  const read = readSalvageable(path);
  const { lostEntries, lostVersions } = read;
  if (lostEntries.length + lostVersions.length > 0) {
    throw new MemoryError(
      "CORRUPT",
      `${lostEntries.length} entries and ${lostVersions.length} versions are on damaged pages` +
        `${hitSource.length > 0 ? ` (${hitSource.join(", ")})` : ""}; nothing was changed. ` +
        "`claw-memory doctor --salvage OUT` saves every entry that can be read into a new store",
    );
  }
  const rebuilt = join(dirname(path), `${basename(path)}.rebuilt`);
  rmSync(rebuilt, { force: true });
  const written = writeRebuiltStore(rebuilt, read.rows);
  const keptAs = `${path}.before-repair`;
  for (const suffix of ["", "-wal", "-shm"]) {
    rmSync(`${keptAs}${suffix}`, { force: true });
    if (existsSync(`${path}${suffix}`)) renameSync(`${path}${suffix}`, `${keptAs}${suffix}`);
  }
  renameSync(rebuilt, path);
  return { entries: written.entries, versions: written.versions, keptAs };
}
