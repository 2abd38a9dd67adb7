import { MemoryError } from "@claw/memory-api";
import type { Database } from "better-sqlite3";
import { contentHash } from "../../text/content-hash.js";
import { toFtsIndexText } from "../../text/tokenizer.js";
import { parseTimestamp } from "../../timestamps.js";
import { configureFullTextIndex, rebuildFullTextIndex, reindexFullText } from "../search/fts-index.js";
import { CREATE_METADATA_FIELDS, rebuildFieldIndex } from "../search/metadata-fields.js";
import { contextOf } from "../writes/session-turns.js";
import { createMetaStore } from "./meta-store.js";
import {
  CREATE_EMBEDDING_CACHE,
  CREATE_FTS,
  CREATE_MEMORIES,
  CREATE_MEMORY_INDEXES,
  CREATE_META,
  CREATE_VERSIONS,
  LEGACY_FTS_TRIGGERS,
  MEMORY_COLUMNS,
  SCHEMA_VERSION,
} from "./schema.js";
import { createStatementCache, type StatementCache } from "./statement-cache.js";

export interface MigrationReport {
  fromVersion: number;
  toVersion: number;
  /** Rows carried over from a table of an older shape. */
  rebuiltRows: number;
}

type Row = Record<string, unknown>;

/**
 * Brings any database (empty, the seed's shape, or an earlier version of ours) to SCHEMA_VERSION,
 * in one transaction. Idempotent: running it on an up-to-date database changes nothing. A database
 * of a later version is refused (UNAVAILABLE), unchanged.
 */
export function migrate(db: Database, newId: () => string): MigrationReport {
  db.exec(CREATE_META);
  const meta = createMetaStore(db);
  const fromVersion = Number(meta.get("schema_version") ?? (tableExists(db, "memories") ? 1 : 0));
  // Up to date: nothing to write, so no write lock is taken (another process may be writing).
  if (fromVersion === SCHEMA_VERSION) return { fromVersion, toVersion: SCHEMA_VERSION, rebuiltRows: 0 };
  // A newer release writes what this one does not know to keep (the full-text index's change count
  // that other connections' held postings follow, new columns): it must not write there, nor mark
  // the database as its own version.
  if (fromVersion > SCHEMA_VERSION) {
    throw new MemoryError(
      "UNAVAILABLE",
      `the database is at schema version ${fromVersion}, newer than this claw-memory knows (${SCHEMA_VERSION}): upgrade @claw/memory-core`,
    );
  }
  let rebuiltRows = 0;
  const statements = createStatementCache(db);
  db.transaction(() => {
    if (tableExists(db, "memories") && !columnsOf(db, "memories").has("rid")) {
      rebuiltRows = rebuildLegacyMemories(db, newId);
    }
    db.exec(CREATE_MEMORIES);
    addMissingColumns(db);
    db.exec(CREATE_MEMORY_INDEXES);
    db.exec(CREATE_VERSIONS);
    db.exec(CREATE_METADATA_FIELDS);
    // The metadata index (schema 7) starts with what earlier versions stored.
    if (fromVersion > 0 && fromVersion < 7) rebuildFieldIndex(statements);
    migrateEmbeddingCache(db);
    ensureFts(db, statements);
    backfillHashes(db, statements);
    meta.set("schema_version", String(SCHEMA_VERSION));
  }).immediate();
  return { fromVersion, toVersion: SCHEMA_VERSION, rebuiltRows };
}

function tableExists(db: Database, name: string): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE name = ?").get(name) !== undefined;
}

function columnsOf(db: Database, table: string): Set<string> {
  const rows = db.prepare(`PRAGMA table_info(${table})`).all() as Array<{ name: string }>;
  return new Set(rows.map((r) => r.name));
}

/** Columns added after version 2 go here with their definitions; none yet beyond the base table. */
function addMissingColumns(db: Database): void {
  const present = columnsOf(db, "memories");
  const definitions: Record<string, string> = {
    source_path: "TEXT",
    source_start: "INTEGER",
    source_end: "INTEGER",
    fts_text: "TEXT",
    context: "TEXT",
    metadata: "TEXT",
    expires_at: "TEXT",
    version: "INTEGER NOT NULL DEFAULT 1",
    change_action: "TEXT",
    change_actor: "TEXT",
    content_hash: "TEXT NOT NULL DEFAULT ''",
  };
  for (const column of MEMORY_COLUMNS) {
    const definition = definitions[column];
    if (!present.has(column) && definition !== undefined) {
      db.exec(`ALTER TABLE memories ADD COLUMN ${column} ${definition}`);
    }
  }
}

/**
 * The seed's table keys rows by a TEXT id with a global UNIQUE(key) and lacks namespace, session,
 * importance and supersession columns. SQLite cannot drop that constraint in place, so the rows
 * move to a table of the current shape. Duplicate keys (possible in shapes without the constraint)
 * are kept under a suffixed key rather than dropped.
 */
function rebuildLegacyMemories(db: Database, newId: () => string): number {
  const legacy = columnsOf(db, "memories");
  const pick = (row: Row, column: string): unknown => (legacy.has(column) ? row[column] : undefined);
  const rows = db.prepare("SELECT rowid AS legacy_rowid, * FROM memories ORDER BY rowid").all() as Row[];

  for (const trigger of db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'memories'")
    .all() as Array<{ name: string }>) {
    db.exec(`DROP TRIGGER IF EXISTS "${trigger.name.replaceAll('"', '""')}"`);
  }
  db.exec("DROP TABLE IF EXISTS memories_fts");
  db.exec(CREATE_MEMORIES.replace("memories (", "memories_next ("));
  const insert = db.prepare(`INSERT INTO memories_next
    (id, key, content, category, embedding, created_at, updated_at, session_id, namespace,
     importance, superseded_by, embedding_content_hash, content_hash, fts_text)
    VALUES (@id, @key, @content, @category, @embedding, @created_at, @updated_at, @session_id,
     @namespace, @importance, @superseded_by, @embedding_content_hash, @content_hash, @fts_text)`);
  const taken = new Set<string>();
  const seenIds = new Set<string>();
  const fallbackTime = new Date().toISOString();
  for (const row of rows) {
    const content = String(pick(row, "content") ?? "");
    const namespace = String(pick(row, "namespace") ?? "default") || "default";
    const baseKey = String(pick(row, "key") ?? pick(row, "id") ?? row.legacy_rowid);
    let key = baseKey;
    for (let n = 2; taken.has(`${namespace}\u0000${key}`); n++) key = `${baseKey}~${n}`;
    taken.add(`${namespace}\u0000${key}`);
    let id = String(pick(row, "id") ?? "");
    if (id === "" || seenIds.has(id)) id = newId();
    seenIds.add(id);
    const created =
      timestampOf(pick(row, "created_at")) ?? timestampOf(pick(row, "timestamp")) ?? fallbackTime;
    const updated = timestampOf(pick(row, "updated_at")) ?? created;
    const embedding = pick(row, "embedding");
    const hash = contentHash(content);
    insert.run({
      id,
      key,
      content,
      category: String(pick(row, "category") ?? "core") || "core",
      embedding: embedding instanceof Uint8Array && embedding.byteLength > 0 ? embedding : null,
      created_at: created,
      updated_at: updated,
      session_id: stringOrNull(pick(row, "session_id")),
      namespace,
      importance: typeof pick(row, "importance") === "number" ? pick(row, "importance") : null,
      superseded_by: stringOrNull(pick(row, "superseded_by")),
      embedding_content_hash: embedding instanceof Uint8Array ? hash : null,
      content_hash: hash,
      fts_text: toFtsIndexText(content),
    });
  }
  db.exec("DROP TABLE memories");
  db.exec("ALTER TABLE memories_next RENAME TO memories");
  return rows.length;
}

function timestampOf(value: unknown): string | null {
  if (typeof value !== "string") return null;
  return parseTimestamp(value)?.toISOString() ?? null;
}

function stringOrNull(value: unknown): string | null {
  return typeof value === "string" && value !== "" ? value : null;
}

/** The seed's cache has no provider/model columns, so its vectors cannot be attributed: drop them. */
function migrateEmbeddingCache(db: Database): void {
  if (tableExists(db, "embedding_cache") && !columnsOf(db, "embedding_cache").has("provider")) {
    db.exec("DROP TABLE embedding_cache");
  }
  db.exec(CREATE_EMBEDDING_CACHE);
}

/**
 * Version 4 indexes each entry's context beside its text (a rebuild, inside the migration's
 * transaction: an interrupted upgrade leaves the old index and runs again at the next open).
 * Version 3 keeps the index in application code (fts-index.ts), so the triggers of version 2 go;
 * left in place they would index every write twice. An index of an older shape is replaced and
 * filled from the memories rows.
 */
function ensureFts(db: Database, statements: StatementCache): void {
  for (const trigger of LEGACY_FTS_TRIGGERS) db.exec(`DROP TRIGGER IF EXISTS ${trigger}`);
  const row = db.prepare("SELECT sql FROM sqlite_master WHERE name = 'memories_fts'").get() as
    | { sql: string }
    | undefined;
  // Version 4 added the context column; an index without it is rebuilt with it.
  const replace = !row?.sql.includes("contentless_delete") || !/\bcontext\b/.test(row.sql);
  if (replace) {
    if (row !== undefined) db.exec("DROP TABLE memories_fts");
    db.exec(CREATE_FTS);
  }
  // Before the fill, so that it already runs with the index's options.
  configureFullTextIndex(statements);
  if (replace) rebuildFullTextIndex(statements);
}

/** Rows written by an older version lack the content hash the deferred-embedding guard relies on. */
function backfillHashes(db: Database, statements: StatementCache): void {
  const rows = db
    .prepare(
      `SELECT rid, key, content, fts_text, namespace, session_id, created_at, context FROM memories
       WHERE content_hash = ''`,
    )
    .all() as Array<{
    rid: number;
    key: string;
    content: string;
    fts_text: string | null;
    namespace: string;
    session_id: string | null;
    created_at: string;
    context: string | null;
  }>;
  const update = db.prepare(`UPDATE memories SET content_hash = @hash, fts_text = @fts,
    embedding_content_hash = CASE WHEN embedding IS NOT NULL AND embedding_content_hash IS NULL
      THEN @hash ELSE embedding_content_hash END
    WHERE rid = @rid`);
  for (const row of rows) {
    const fts = toFtsIndexText(row.content);
    update.run({ hash: contentHash(row.content), fts, rid: row.rid });
    if (fts !== row.fts_text) {
      const context = contextOf(statements, {
        namespace: row.namespace,
        sessionId: row.session_id,
        createdAt: row.created_at,
        rid: row.rid,
        extra: row.context,
      });
      reindexFullText(statements, row.rid, row.key, fts ?? row.content, context);
    }
  }
}
