// @claw/memory-postgres: the claw-memory Memory on PostgreSQL + pgvector (`backend = "postgres"`).
export { SCHEMA_VERSION } from "./db/migrations.js";
export { endPool } from "./db/pool.js";
export { openPostgresMemory } from "./open-postgres-memory.js";
export { PostgresMemory } from "./postgres-memory.js";
export {
  DEFAULT_POOL_MAX,
  DEFAULT_SCHEMA,
  DEFAULT_TEXT_SEARCH_CONFIG,
  type PostgresMemoryOptions,
} from "./postgres-memory-options.js";
