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
];

export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]?.version ?? 0;
