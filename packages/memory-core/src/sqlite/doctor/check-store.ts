// `claw-memory doctor`'s checks of a SQLite store, read-only: SQLite's integrity check (naming the
// tables and indexes it finds damaged), the full-text index's own check and its row count, and the
// derived tables (vector codes, metadata index) against the entries they are derived from.
import type { Database } from "better-sqlite3";
import { storageFailure } from "../../storage-failure.js";
import { fieldsOf } from "../search/metadata-fields.js";
import { ENCODING_KEY } from "../vectors/encoding-state.js";

/** The result of one doctor check of a SQLite store. */
export interface DoctorCheck {
  name: "integrity" | "full-text" | "vector-codes" | "metadata-index";
  ok: boolean;
  /** What was found ("ok", or the problems). */
  detail: string;
  /** Tables and indexes named damaged (integrity only). */
  damaged?: string[];
}

/** Tables that hold what cannot be rebuilt: damage there loses entries or history. */
export const SOURCE_TABLES = new Set(["memories", "memory_versions", "meta", "sqlite_schema"]);

/** Integrity problems reported, at most. */
const MAX_PROBLEMS = 100;

export function checkStore(db: Database): DoctorCheck[] {
  return [integrity(db), fullText(db), vectorCodes(db), metadataIndex(db)];
}

function integrity(db: Database): DoctorCheck {
  const problems = attempt(
    () => db.prepare(`PRAGMA integrity_check(${MAX_PROBLEMS})`).pluck().all() as string[],
  );
  // A page damaged badly enough stops the whole check: each table and index is then checked alone.
  if (typeof problems === "string")
    return { name: "integrity", ok: false, detail: problems, damaged: checkEach(db) };
  if (problems.length === 1 && problems[0] === "ok") return { name: "integrity", ok: true, detail: "ok" };
  return {
    name: "integrity",
    ok: false,
    detail: `${problems.length} problem(s): ${problems.slice(0, 5).join("; ")}`,
    damaged: damagedObjects(db, problems),
  };
}

/**
 * The tables and indexes that cannot be read through: each table scanned whole, each full index
 * walked whole (partial indexes are not told apart: the repair rebuilds them all anyway).
 */
function checkEach(db: Database): string[] {
  type SchemaRow = { type: string; name: string; tbl_name: string; sql: string | null };
  const objects = attempt(
    () =>
      db
        .prepare("SELECT type, name, tbl_name, sql FROM sqlite_schema WHERE rootpage > 0 ORDER BY name")
        .all() as SchemaRow[],
  );
  if (typeof objects === "string") return ["sqlite_schema"];
  const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;
  const walk = (sql: string) =>
    attempt(() => {
      for (const _ of db.prepare(sql).raw().iterate());
      return "ok";
    });
  const damaged: string[] = [];
  for (const object of objects) {
    if (object.type === "table") {
      if (walk(`SELECT * FROM ${quote(object.name)}`) !== "ok") damaged.push(object.name);
    } else if (object.type === "index" && !/\bWHERE\b/i.test(object.sql ?? "")) {
      const sql = `SELECT 1 FROM ${quote(object.tbl_name)} INDEXED BY ${quote(object.name)} ORDER BY 1`;
      if (walk(sql) !== "ok") damaged.push(object.name);
    }
  }
  return damaged;
}

/**
 * The tables and indexes the problems name: by name ("… missing from index memories_session"), or
 * by the root page of their tree ("Tree 4 page 267 …", "Page 267: …" are told by the tree).
 */
function damagedObjects(db: Database, problems: string[]): string[] {
  const roots = new Map<number, string>();
  const schema = attempt(
    () =>
      db.prepare("SELECT name, rootpage FROM sqlite_schema WHERE rootpage > 0").all() as Array<{
        name: string;
        rootpage: number;
      }>,
  );
  if (typeof schema === "string") return ["sqlite_schema"];
  for (const { name, rootpage } of schema) roots.set(rootpage, name);
  const names = new Set<string>();
  for (const problem of problems) {
    const tree = /Tree (\d+) page/.exec(problem);
    if (tree !== null) names.add(roots.get(Number(tree[1])) ?? `tree ${tree[1]}`);
    const index = /(?:from|in) index (\S+)/.exec(problem);
    if (index !== null) names.add(index[1] as string);
    if (tree === null && index === null) names.add("(page list)");
  }
  return [...names].sort();
}

function fullText(db: Database): DoctorCheck {
  const result = attempt(() => {
    db.prepare("INSERT INTO memories_fts(memories_fts) VALUES ('integrity-check')").run();
    const indexed = db.prepare("SELECT count(*) FROM memories_fts_docsize").pluck().get() as number;
    const entries = db.prepare("SELECT count(*) FROM memories").pluck().get() as number;
    return indexed === entries ? "ok" : `indexes ${indexed} entries of ${entries}`;
  });
  return { name: "full-text", ok: result === "ok", detail: result };
}

function vectorCodes(db: Database): DoctorCheck {
  const result = attempt(() => {
    const encoded = db.prepare("SELECT 1 FROM meta WHERE key = ?").get(ENCODING_KEY) !== undefined;
    if (!encoded) return "ok";
    const missing = db
      .prepare(
        "SELECT count(*) FROM memories m LEFT JOIN memory_codes c ON c.rid = m.rid WHERE m.embedding IS NOT NULL AND c.rid IS NULL",
      )
      .pluck()
      .get() as number;
    const orphans = db
      .prepare(
        "SELECT count(*) FROM memory_codes c LEFT JOIN memories m ON m.rid = c.rid WHERE m.rid IS NULL",
      )
      .pluck()
      .get() as number;
    if (missing === 0 && orphans === 0) return "ok";
    return `${missing} vector(s) without a code, ${orphans} code(s) without an entry`;
  });
  return { name: "vector-codes", ok: result === "ok", detail: result };
}

function metadataIndex(db: Database): DoctorCheck {
  const result = attempt(() => {
    let expected = 0;
    for (const metadata of db
      .prepare("SELECT metadata FROM memories WHERE metadata IS NOT NULL")
      .pluck()
      .iterate()) {
      expected += fieldsOf(JSON.parse(metadata as string)).length;
    }
    const indexed = db.prepare("SELECT count(*) FROM memory_fields").pluck().get() as number;
    return indexed === expected ? "ok" : `holds ${indexed} value(s), the entries' metadata has ${expected}`;
  });
  return { name: "metadata-index", ok: result === "ok", detail: result };
}

/** `fn`'s value, or what failed as text (a damaged page stops a check, not the doctor). */
function attempt<T>(fn: () => T): T | string {
  try {
    return fn();
  } catch (error) {
    return storageFailure(error, "cannot be read").message;
  }
}
