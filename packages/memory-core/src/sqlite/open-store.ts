import type { EmbeddingProvider, Logger } from "@claw/memory-api";
import type { Database } from "better-sqlite3";
import { applyDatabaseCap, type DatabaseCap } from "./schema/database-cap.js";
import { createMetaStore } from "./schema/meta-store.js";
import { migrate } from "./schema/migrate.js";
import { type ConnectionSizes, openDatabase } from "./schema/open-database.js";
import { applyFingerprint } from "./schema/provider-fingerprint.js";
import { createStatementCache, type StatementCache } from "./schema/statement-cache.js";
import { nibbleScanAvailable } from "./vectors/nibble-blocks.js";
import { createVectorIndex, type VectorIndex } from "./vectors/vector-index.js";

/** status().warnings and the one log line when the vector pre-filter cannot scan in WebAssembly. */
export const NO_SIMD_WARNING =
  "WebAssembly SIMD unavailable: the vector pre-filter scans its codes in JavaScript, several times slower";

/** The parts a SqliteMemory composes, opened and wired in order. */
export interface StoreParts {
  db: Database;
  statements: StatementCache;
  vectors: VectorIndex;
  /** The `max_database_mb` cap on `db`, and the reserve deletions may use. */
  cap: DatabaseCap;
  /** Why the store runs degraded, for status(). */
  warnings: string[];
}

export interface OpenStoreOptions {
  path: string;
  provider: EmbeddingProvider | null;
  logger: Logger;
  newId: () => string;
  loadVectorExtension: boolean;
  sizes: ConnectionSizes;
  /** The `max_database_mb` cap (0 or absent: none). */
  maxDatabaseMb?: number;
}

/**
 * Opens the database, migrates it, builds the vector index and applies the provider fingerprint;
 * then caps it at `maxDatabaseMb` (database-cap.ts), so that opening never fails on the cap.
 */
export function openStore(options: OpenStoreOptions): StoreParts {
  const { provider, logger } = options;
  const opened = openDatabase(options.path, {
    logger,
    loadVectorExtension: options.loadVectorExtension,
    sizes: options.sizes,
  });
  const { db } = opened;
  try {
    migrate(db, options.newId);
    const statements = createStatementCache(db);
    const meta = createMetaStore(db);
    const vectors = createVectorIndex(db, statements, meta, opened.vecVersion !== null, { logger });
    const warnings: string[] = [];
    if (provider === null) {
      const cap = applyDatabaseCap(db, options.maxDatabaseMb ?? 0, logger);
      return { db, statements, vectors, cap, warnings };
    }
    if (opened.vecUnavailableReason) warnings.push(opened.vecUnavailableReason);
    if (!nibbleScanAvailable()) {
      warnings.push(NO_SIMD_WARNING);
      logger.warn(NO_SIMD_WARNING);
    }
    applyFingerprint(db, meta, vectors, provider, logger);
    const cap = applyDatabaseCap(db, options.maxDatabaseMb ?? 0, logger);
    return { db, statements, vectors, cap, warnings };
  } catch (error) {
    db.close();
    throw error;
  }
}
