// A new database file holding given rows of the source tables (entries, their history, meta, the
// embedding cache), with everything derived from them built afresh: the full-text index and the
// metadata index here, the vector codes by the next open (their encoding is left out, so it
// rebuilds them). Written to a temp file in the destination's folder, checked, then renamed.
import { randomUUID } from "node:crypto";
import { renameSync, rmSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { MemoryError } from "@claw/memory-api";
import Database from "better-sqlite3";
import { uuidV7 } from "../../uuid-v7.js";
import { migrate } from "../schema/migrate.js";
import { MEMORY_COLUMNS } from "../schema/schema.js";
import { createStatementCache } from "../schema/statement-cache.js";
import { rebuildFieldIndex } from "../search/metadata-fields.js";
import { rebuildFullText } from "../search/rebuild-full-text.js";
import { DIMENSIONS_KEY, ENCODING_KEY } from "../vectors/encoding-state.js";

type Row = Record<string, unknown>;

export interface RebuildRows {
  entries: Row[];
  versions: Row[];
  meta: Row[];
  cache: Row[];
}

export interface RebuiltStore {
  entries: number;
  versions: number;
}

/** Meta keys that describe derived state, rebuilt rather than copied. */
const DERIVED_META = new Set([ENCODING_KEY, DIMENSIONS_KEY, "schema_version"]);

const VERSION_COLUMNS = [
  "namespace",
  "key",
  "version",
  "id",
  "action",
  "actor",
  "at",
  "deleted",
  "content",
  "category",
  "session_id",
  "importance",
  "superseded_by",
  "metadata",
  "expires_at",
  "context",
  "source_path",
  "source_start",
  "source_end",
] as const;

/** Writes `rows` as a new store at `path` (which must not exist yet). */
export function writeRebuiltStore(path: string, rows: RebuildRows): RebuiltStore {
  const temp = join(dirname(path), `.${basename(path)}.${randomUUID()}.tmp`);
  try {
    const counts = fill(temp, rows);
    renameSync(temp, path);
    return counts;
  } finally {
    rmSync(temp, { force: true });
    rmSync(`${temp}-journal`, { force: true });
  }
}

function fill(path: string, rows: RebuildRows): RebuiltStore {
  const db = new Database(path);
  try {
    migrate(db, uuidV7);
    const statements = createStatementCache(db);
    const counts = db
      .transaction(() => {
        const entries = insertAll(db, "memories", MEMORY_COLUMNS, rows.entries);
        const versions = insertAll(db, "memory_versions", VERSION_COLUMNS, rows.versions);
        const meta = db.prepare("INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)");
        for (const row of rows.meta) {
          if (typeof row.key === "string" && !DERIVED_META.has(row.key)) meta.run(row.key, row.value);
        }
        insertAll(db, "embedding_cache", Object.keys(rows.cache[0] ?? {}), rows.cache);
        rebuildFieldIndex(statements);
        return { entries, versions };
      })
      .immediate();
    rebuildFullText(db, statements);
    const check = db.prepare("PRAGMA integrity_check").pluck().all() as string[];
    if (check.length !== 1 || check[0] !== "ok") {
      throw new MemoryError("STORAGE", `the rebuilt store failed its check: ${check.slice(0, 3).join("; ")}`);
    }
    statements.clear();
    return counts;
  } finally {
    db.close();
  }
}

/** Inserts the rows' values of `columns` (those a row has), skipping duplicates; returns how many went in. */
function insertAll(db: Database.Database, table: string, columns: readonly string[], rows: Row[]): number {
  if (rows.length === 0 || columns.length === 0) return 0;
  const present = columns.filter((column) => column in (rows[0] as Row));
  const insert = db.prepare(
    `INSERT OR IGNORE INTO ${table} (${present.join(", ")}) VALUES (${present.map(() => "?").join(", ")})`,
  );
  let written = 0;
  for (const row of rows) written += insert.run(...present.map((column) => row[column] ?? null)).changes;
  return written;
}
