import type { BackendMemoryOptions } from "@claw/memory-core";
import type { Pool } from "./db/pool.js";

/** Options of PostgresMemory.open: where the database is, and the pool, schema and search settings. */
export interface PostgresMemoryOptions extends BackendMemoryOptions {
  /** A libpq connection string (`[postgres] url`, or CLAW_MEMORY_PG_URL in the apps). Or give `pool`. */
  url?: string;
  /** A pool the caller owns instead of `url`: close() leaves it open. */
  pool?: Pool;
  /** Connections of the pool this store opens from `url`. Default 10. */
  poolMax?: number;
  /** The schema holding the tables; created when missing. Default "public". */
  schema?: string;
  /** The language-aware text search configuration, besides 'simple'. Default "english". */
  textSearchConfig?: string;
  /**
   * Each statement is prepared once per connection and then only executed (default true): planning
   * is skipped, keyword recall and store() cost ~20 % less. Turn it off behind a connection pooler
   * that does not keep prepared statements across transactions (PgBouncer in transaction mode
   * before 1.21).
   */
  preparedStatements?: boolean;
  /**
   * Most memory (MB) building the vector index asks for (its session's `maintenance_work_mem`; the
   * role's own setting when higher). Default 1024. pgvector builds the graph in memory while it
   * fits and on disk, several times slower, after: ~1 KB a row at 64 dimensions, ~7 KB at 1536.
   * A build that did not fit is named in status() and one warning.
   */
  indexBuildMemoryMb?: number;
}

/** Connections in the pool unless `poolMax` says otherwise. */
export const DEFAULT_POOL_MAX = 10;
/** The PostgreSQL schema the tables go in unless `schema` says otherwise. */
export const DEFAULT_SCHEMA = "public";
/** The text search configuration (stemming, stop words) unless `textSearchConfig` says otherwise. */
export const DEFAULT_TEXT_SEARCH_CONFIG = "english";
