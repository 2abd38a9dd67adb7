import type { SqlNames } from "./sql-names.js";

/**
 * The one place the database's shape is declared: versioned steps, applied in order by migrate.ts
 * under an advisory lock. Each step is idempotent (IF NOT EXISTS), so a step interrupted before
 * its version was recorded simply runs again.
 */
export interface Migration {
  version: number;
  statements(names: SqlNames): string[];
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    statements: (n) => [
      `CREATE TABLE IF NOT EXISTS ${n.memories} (
        rid bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        id text NOT NULL UNIQUE,
        key text NOT NULL,
        content text NOT NULL,
        category text NOT NULL DEFAULT 'core',
        namespace text NOT NULL DEFAULT 'default',
        session_id text,
        importance double precision,
        superseded_by text,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        content_hash text NOT NULL,
        -- key and content as fts-text.ts indexes them
        fts tsvector NOT NULL,
        source_path text,
        source_start integer,
        source_end integer,
        -- float4 values; pgvector indexes them through a cast (vector-index.ts), so the column
        -- exists with or without the extension
        embedding real[],
        embedding_hash text,
        -- a server embedding this row holds it until then (FOR UPDATE SKIP LOCKED claims)
        embed_claimed_until timestamptz,
        UNIQUE (namespace, key)
      )`,
      `CREATE INDEX IF NOT EXISTS claw_memories_fts ON ${n.memories} USING gin (fts)`,
      `CREATE INDEX IF NOT EXISTS claw_memories_namespace_updated ON ${n.memories} (namespace, updated_at DESC, rid DESC)`,
      `CREATE INDEX IF NOT EXISTS claw_memories_updated ON ${n.memories} (updated_at DESC, rid DESC)`,
      `CREATE INDEX IF NOT EXISTS claw_memories_namespace_category ON ${n.memories} (namespace, category, importance)`,
      `CREATE INDEX IF NOT EXISTS claw_memories_session ON ${n.memories} (session_id) WHERE session_id IS NOT NULL`,
      `CREATE INDEX IF NOT EXISTS claw_memories_session_order ON ${n.memories} (namespace, session_id, created_at, rid)
        WHERE session_id IS NOT NULL`,
      `CREATE INDEX IF NOT EXISTS claw_memories_missing_embedding ON ${n.memories} (rid) WHERE embedding IS NULL`,
      `CREATE TABLE IF NOT EXISTS ${n.cache} (
        provider text NOT NULL,
        model text NOT NULL,
        content_hash text NOT NULL,
        embedding real[] NOT NULL,
        created_at timestamptz NOT NULL,
        accessed_at timestamptz NOT NULL,
        PRIMARY KEY (provider, model, content_hash)
      )`,
      `CREATE INDEX IF NOT EXISTS claw_embedding_cache_accessed ON ${n.cache} (accessed_at)`,
      // Bumped after every committed write, by any server: recall caches compare it (change-stamp.ts).
      `CREATE SEQUENCE IF NOT EXISTS ${n.changes}`,
    ],
  },
  {
    version: 2,
    // MemoryEntry.context: more words an entry is found by (indexed in its tsvector at weight D).
    statements: (n) => [`ALTER TABLE ${n.memories} ADD COLUMN IF NOT EXISTS context text`],
  },
  {
    version: 3,
    // MemoryEntry.metadata, filtered by `where` (store/where-sql.ts).
    statements: (n) => [`ALTER TABLE ${n.memories} ADD COLUMN IF NOT EXISTS metadata jsonb`],
  },
  {
    version: 4,
    // Expiry, and the history of every entry: the live state keeps its version number, change
    // and actor; earlier states and tombstones are rows of the versions table. An overwrite is
    // kept by a trigger, which sees the row as it is when locked, so two servers writing one key
    // at once both leave their version.
    statements: (n) => [
      `ALTER TABLE ${n.memories} ADD COLUMN IF NOT EXISTS expires_at timestamptz`,
      `ALTER TABLE ${n.memories} ADD COLUMN IF NOT EXISTS version integer NOT NULL DEFAULT 1`,
      `ALTER TABLE ${n.memories} ADD COLUMN IF NOT EXISTS change_action text`,
      `ALTER TABLE ${n.memories} ADD COLUMN IF NOT EXISTS change_actor text`,
      `CREATE INDEX IF NOT EXISTS claw_memories_expiring ON ${n.memories} (expires_at)
        WHERE expires_at IS NOT NULL`,
      `CREATE TABLE IF NOT EXISTS ${n.versions} (
        namespace text NOT NULL,
        key text NOT NULL,
        version integer NOT NULL,
        id text NOT NULL,
        action text NOT NULL,
        actor text NOT NULL,
        at timestamptz NOT NULL,
        deleted boolean NOT NULL DEFAULT false,
        content text NOT NULL,
        category text NOT NULL,
        session_id text,
        importance double precision,
        superseded_by text,
        metadata jsonb,
        expires_at timestamptz,
        context text,
        source_path text,
        source_start integer,
        source_end integer,
        PRIMARY KEY (namespace, key, version)
      )`,
      `CREATE INDEX IF NOT EXISTS claw_memory_versions_session ON ${n.versions} (session_id)
        WHERE session_id IS NOT NULL`,
      `CREATE INDEX IF NOT EXISTS claw_memory_versions_at ON ${n.versions} (at)`,
      `CREATE OR REPLACE FUNCTION ${n.archiveFunction}() RETURNS trigger LANGUAGE plpgsql AS $fn$
      BEGIN
        IF NEW.change_action IN ('merge', 'restore')
          OR (OLD.content, OLD.category, OLD.session_id, OLD.importance, OLD.superseded_by, OLD.metadata,
              OLD.expires_at, OLD.context)
            IS DISTINCT FROM (NEW.content, NEW.category, NEW.session_id, NEW.importance, NEW.superseded_by,
              NEW.metadata, NEW.expires_at, NEW.context) THEN
          INSERT INTO ${n.versions} (namespace, key, version, id, action, actor, at, deleted, content,
            category, session_id, importance, superseded_by, metadata, expires_at, context, source_path,
            source_start, source_end)
          VALUES (OLD.namespace, OLD.key, OLD.version, OLD.id, coalesce(OLD.change_action, 'create'),
            coalesce(OLD.change_actor, 'unknown'), OLD.updated_at, false, OLD.content, OLD.category,
            OLD.session_id, OLD.importance, OLD.superseded_by, OLD.metadata, OLD.expires_at, OLD.context,
            OLD.source_path, OLD.source_start, OLD.source_end);
          NEW.version := OLD.version + 1;
          IF NEW.change_action IS NULL OR NEW.change_action NOT IN ('merge', 'restore') THEN
            NEW.change_action := CASE WHEN OLD.superseded_by IS NULL AND NEW.superseded_by IS NOT NULL
              THEN 'supersede' ELSE 'update' END;
          END IF;
        ELSE
          NEW.version := OLD.version;
          NEW.change_action := OLD.change_action;
          NEW.change_actor := OLD.change_actor;
        END IF;
        RETURN NEW;
      END
      $fn$`,
      `DROP TRIGGER IF EXISTS claw_archive_version ON ${n.memories}`,
      `CREATE TRIGGER claw_archive_version BEFORE UPDATE OF content, category, session_id, importance,
        superseded_by, metadata, expires_at, context, change_action ON ${n.memories}
        FOR EACH ROW EXECUTE FUNCTION ${n.archiveFunction}()`,
    ],
  },
  {
    version: 5,
    // `where` filters: $eq and $in also test containment (store/where-sql.ts), which this index
    // answers, so a selective filter reads the rows it names instead of testing every row.
    statements: (n) => [
      `CREATE INDEX IF NOT EXISTS claw_memories_metadata ON ${n.memories} USING gin (metadata jsonb_path_ops)`,
    ],
  },
  {
    version: 6,
    // Rows written since the full-text index last merged its pending list are read by every
    // search, one by one: 4 MB by default (thousands of entries), 512 kB here. A write that fills
    // the list merges it (table-analyzer.ts also merges it after bulk writes).
    statements: (n) => [`ALTER INDEX ${n.schema}.claw_memories_fts SET (gin_pending_list_limit = 512)`],
  },
  {
    version: 7,
    // The change stamp becomes transactional, one counter per backend (db/change-stamp.ts): a
    // write adds to it in its own statement instead of a nextval after its commit. Small rows
    // updated in place: a fillfactor that leaves room for HOT updates.
    statements: (n) => [
      `CREATE TABLE IF NOT EXISTS ${n.changeCounts} (
        backend integer PRIMARY KEY,
        n bigint NOT NULL
      ) WITH (fillfactor = 50)`,
    ],
  },
  {
    version: 8,
    // Keyword passes over the budget rank the newest entries only (search/keyword-search.ts): a
    // block range index on rid (rows are appended in rid order) hands the full-text index's
    // bitmap the newest pages alone, ~1 ms at 1M entries where the primary key's range took longer.
    statements: (n) => [
      `CREATE INDEX IF NOT EXISTS claw_memories_rid_recent ON ${n.memories} USING brin (rid)`,
    ],
  },
  {
    version: 9,
    // A block range of that index matches every query until it is summarized: autovacuum now
    // summarizes each range once the next one starts filling (table-analyzer.ts summarizes after
    // bulk writes at once), so the newest pages a store() appends stay few.
    statements: (n) => [`ALTER INDEX ${n.schema}.claw_memories_rid_recent SET (autosummarize = on)`],
  },
  {
    version: 10,
    // No planner statistics of the vectors: no query compares them as arrays, and ANALYZE hashed
    // every float of its 30,000-row sample for them (at 1,536 dims, 70 % of its time). The HNSW
    // index's expression is left out likewise (vector-index.ts). A vector too big to stay in its
    // row (over ~2 kB: 500 dims) goes out of line as it is: floats do not compress, and trying
    // first doubled the time to write one.
    statements: (n) => [
      `ALTER TABLE ${n.memories} ALTER COLUMN embedding SET STATISTICS 0, ALTER COLUMN embedding SET STORAGE EXTERNAL`,
      `ALTER TABLE ${n.cache} ALTER COLUMN embedding SET STATISTICS 0, ALTER COLUMN embedding SET STORAGE EXTERNAL`,
    ],
  },
];

/** The schema version this release creates and upgrades to. */
export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]?.version ?? 0;
