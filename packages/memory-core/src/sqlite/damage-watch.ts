// A damaged database file, once seen, stays known: the first CORRUPT failure (on open, a read, a
// recall or a write) is written beside the database as `brain.db.damaged`, every later write is
// refused with CORRUPT (writing into a damaged b-tree spreads the damage), reads go on where the
// pages they need are whole, and status() says so with the command to run. The marker outlives the
// process, so the next open refuses writes too, and other connections to the file (recall workers, a
// second process) see it at their next write; `claw-memory doctor --repair` (when the checks pass
// afterwards) or a restore removes it.
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { type Logger, MemoryError } from "@claw/memory-api";

export interface DamageNote {
  /** When it was first seen (RFC 3339). */
  at: string;
  /** What SQLite said. */
  reason: string;
}

export interface DamageWatch {
  /** What is known of the damage (null: none seen). */
  readonly note: DamageNote | null;
  /** Records a CORRUPT failure (others are ignored): marker written and logged on the first one. */
  notice(error: MemoryError): void;
  /** Throws CORRUPT when the file is known to be damaged. */
  assertWritable(): void;
}

/** The file that records the damage, beside the database. */
export function damageMarkerPath(databasePath: string): string {
  return `${databasePath}.damaged`;
}

/** The damage recorded beside `databasePath`, or null when there is no (readable) marker. */
export function readDamageMarker(databasePath: string): DamageNote | null {
  try {
    const parsed = JSON.parse(readFileSync(damageMarkerPath(databasePath), "utf8")) as Partial<DamageNote>;
    return { at: String(parsed.at ?? ""), reason: String(parsed.reason ?? "the database is damaged") };
  } catch {
    return null;
  }
}

/** Writes the marker (temp file + rename, so it is whole or absent). */
export function writeDamageMarker(databasePath: string, note: DamageNote): void {
  const path = damageMarkerPath(databasePath);
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify(note)}\n`);
  renameSync(temp, path);
}

/** Deletes the damage marker beside the database, if any (after a repair). */
export function removeDamageMarker(databasePath: string): void {
  rmSync(damageMarkerPath(databasePath), { force: true });
}

/** The message of a write refused on a damaged store, and of status().corrupt. */
export function damageAdvice(databasePath: string, note: DamageNote): string {
  return (
    `the database ${databasePath} is damaged (${note.reason}); writes are refused until it is repaired: ` +
    "run `claw-memory doctor` to see what is hit, `doctor --repair` or `doctor --salvage OUT`"
  );
}

export function createDamageWatch(options: { path: string; logger: Logger; now: () => Date }): DamageWatch {
  const { path, logger } = options;
  const inMemory = path === ":memory:" || path === "";
  let note = inMemory ? null : readDamageMarker(path);
  return {
    // Another connection (a recall worker, a second process on the file) may have seen it: one
    // stat per write or status (~2 µs) keeps them all refusing.
    get note() {
      if (note === null && !inMemory && existsSync(damageMarkerPath(path))) note = readDamageMarker(path);
      return note;
    },
    notice(error) {
      if (error.code !== "CORRUPT" || note !== null) return;
      note = { at: options.now().toISOString(), reason: error.message };
      logger.error(damageAdvice(path, note));
      if (inMemory) return;
      try {
        writeDamageMarker(path, note);
      } catch (markerError) {
        logger.warn("could not record the damage beside the database", {
          error: (markerError as Error).message,
        });
      }
    },
    assertWritable() {
      const known = this.note;
      if (known !== null) throw new MemoryError("CORRUPT", damageAdvice(path, known));
    },
  };
}
