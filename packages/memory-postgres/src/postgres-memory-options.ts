import type { EmbeddingProvider, Logger } from "@claw/memory-api";
import type { MemorySettings } from "@claw/memory-core";
import type { Pool } from "./db/pool.js";

export interface PostgresMemoryOptions {
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
  /** The `[memory]` settings; defaults for anything not given. */
  settings?: MemorySettings;
  /** null or absent = keyword-only. */
  embeddings?: EmbeddingProvider | null;
  /** Why no provider is set, for status() (e.g. a missing API key). */
  embeddingUnavailableReason?: string;
  logger?: Logger;
  now?: () => Date;
  newId?: () => string;
  /** Close the provider with the store (createMemory sets it for providers it created). */
  closeProvider?: boolean;
  /** Run before the database is released (createMemory's plugin hooks). */
  beforeClose?: (memory: import("@claw/memory-api").Memory) => Promise<void>;
}

export const DEFAULT_POOL_MAX = 10;
export const DEFAULT_SCHEMA = "public";
export const DEFAULT_TEXT_SEARCH_CONFIG = "english";
