/**
 * The one place the database's shape is declared. Migrations (migrate.ts) build on these
 * statements; nothing else creates tables.
 */
export const SCHEMA_VERSION = 7;

/** The memories table. `rid` is an explicit INTEGER PRIMARY KEY so VACUUM never renumbers the
 *  rowids that the FTS and vector indexes point at. */
export const CREATE_MEMORIES = `
CREATE TABLE IF NOT EXISTS memories (
  rid INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  key TEXT NOT NULL,
  content TEXT NOT NULL,
  category TEXT NOT NULL DEFAULT 'core',
  embedding BLOB,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  session_id TEXT,
  namespace TEXT NOT NULL DEFAULT 'default',
  importance REAL,
  superseded_by TEXT,
  embedding_content_hash TEXT,
  content_hash TEXT NOT NULL DEFAULT '',
  fts_text TEXT,
  source_path TEXT,
  source_start INTEGER,
  source_end INTEGER,
  context TEXT,
  metadata TEXT,
  expires_at TEXT,
  version INTEGER NOT NULL DEFAULT 1,
  change_action TEXT,
  change_actor TEXT
)`;

export const MEMORY_COLUMNS = [
  "rid",
  "id",
  "key",
  "content",
  "category",
  "embedding",
  "created_at",
  "updated_at",
  "session_id",
  "namespace",
  "importance",
  "superseded_by",
  "embedding_content_hash",
  "content_hash",
  "fts_text",
  "source_path",
  "source_start",
  "source_end",
  "context",
  "metadata",
  "expires_at",
  "version",
  "change_action",
  "change_actor",
] as const;

export const CREATE_MEMORY_INDEXES = `
CREATE UNIQUE INDEX IF NOT EXISTS memories_namespace_key ON memories(namespace, key);
CREATE INDEX IF NOT EXISTS memories_namespace_updated ON memories(namespace, updated_at);
CREATE INDEX IF NOT EXISTS memories_namespace_category ON memories(namespace, category, importance);
CREATE INDEX IF NOT EXISTS memories_session ON memories(session_id) WHERE session_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS memories_session_order ON memories(namespace, session_id, created_at, rid)
  WHERE session_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS memories_missing_embedding ON memories(rid) WHERE embedding IS NULL;
CREATE INDEX IF NOT EXISTS memories_expiring ON memories(expires_at) WHERE expires_at IS NOT NULL;
`;

/**
 * Every earlier state of an entry, and a tombstone for each deletion (schema 7). The live state
 * stays in `memories` (its `version`, `change_action`, `change_actor`, `updated_at`), so a write
 * that creates an entry costs no second row. Removed with their entries by a purge.
 */
export const CREATE_VERSIONS = `
CREATE TABLE IF NOT EXISTS memory_versions (
  namespace TEXT NOT NULL,
  key TEXT NOT NULL,
  version INTEGER NOT NULL,
  id TEXT NOT NULL,
  action TEXT NOT NULL,
  actor TEXT NOT NULL,
  at TEXT NOT NULL,
  deleted INTEGER NOT NULL DEFAULT 0,
  content TEXT NOT NULL,
  category TEXT NOT NULL,
  session_id TEXT,
  importance REAL,
  superseded_by TEXT,
  metadata TEXT,
  expires_at TEXT,
  context TEXT,
  source_path TEXT,
  source_start INTEGER,
  source_end INTEGER,
  PRIMARY KEY (namespace, key, version)
);
CREATE INDEX IF NOT EXISTS memory_versions_session ON memory_versions(session_id) WHERE session_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS memory_versions_at ON memory_versions(at);
`;

/** Contentless FTS5 index, written only through fts-index.ts (no triggers: see there why). It
 *  indexes `fts_text` (content with CJK runs expanded into bigrams) when present, the content
 *  otherwise, and each entry's context (its date, the previous turn of its session) since
 *  version 4. */
export const CREATE_FTS = `
CREATE VIRTUAL TABLE IF NOT EXISTS memories_fts USING fts5(
  key, body, context, content='', contentless_delete=1,
  tokenize='porter unicode61 remove_diacritics 2'
)`;

/** The triggers that kept memories_fts in sync up to schema version 2. */
export const LEGACY_FTS_TRIGGERS = [
  "memories_fts_insert",
  "memories_fts_delete",
  "memories_fts_update",
] as const;

export const CREATE_EMBEDDING_CACHE = `
CREATE TABLE IF NOT EXISTS embedding_cache (
  provider TEXT NOT NULL,
  model TEXT NOT NULL,
  content_hash TEXT NOT NULL,
  embedding BLOB NOT NULL,
  created_at TEXT NOT NULL,
  accessed_at TEXT NOT NULL,
  PRIMARY KEY (provider, model, content_hash)
);
CREATE INDEX IF NOT EXISTS embedding_cache_accessed ON embedding_cache(accessed_at);
`;

export const CREATE_META = "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)";
