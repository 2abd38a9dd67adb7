import type { EmbeddingProvider, Logger } from "@claw/memory-api";
import type { Database } from "better-sqlite3";
import type { MemorySettings } from "../config/config-schema.js";
import { DEFAULT_RETRY_POLICY } from "../embedding/retry-policy.js";
import { createEmbeddingCache } from "./embedding-cache.js";
import { EmbeddingPipeline } from "./embedding-pipeline.js";
import { applyFingerprint } from "./fingerprint.js";
import { createMetaStore } from "./meta-store.js";
import { migrate } from "./migrate.js";
import { openDatabase } from "./open-database.js";
import { createStatementCache, type StatementCache } from "./statement-cache.js";
import { createVectorIndex, type VectorIndex } from "./vector-index.js";

/** The parts a SqliteMemory composes, opened and wired in order. */
export interface StoreParts {
  db: Database;
  statements: StatementCache;
  vectors: VectorIndex;
  embeddings: EmbeddingPipeline | null;
  /** Why the store runs degraded, for status(). */
  warnings: string[];
}

export interface OpenStoreOptions {
  path: string;
  settings: MemorySettings;
  provider: EmbeddingProvider | null;
  logger: Logger;
  now: () => Date;
  newId: () => string;
  loadVectorExtension: boolean;
  /** Vectors were written (the hot cache must forget its results). */
  onVectorsWritten: () => void;
}

/** Opens the database, migrates it, and builds the vector index and the embedding pipeline. */
export function openStore(options: OpenStoreOptions): StoreParts {
  const { settings, provider, logger } = options;
  const opened = openDatabase(options.path, { logger, loadVectorExtension: options.loadVectorExtension });
  const { db } = opened;
  try {
    migrate(db, options.newId);
    const statements = createStatementCache(db);
    const meta = createMetaStore(db);
    const vectors = createVectorIndex(db, statements, meta, opened.vecVersion !== null);
    const warnings: string[] = [];
    if (provider === null) return { db, statements, vectors, embeddings: null, warnings };
    if (opened.vecUnavailableReason) warnings.push(opened.vecUnavailableReason);
    applyFingerprint(db, meta, vectors, provider, logger);
    const embeddings = new EmbeddingPipeline({
      db,
      statements,
      provider,
      cache: createEmbeddingCache(db, { maxEntries: settings.embeddingCacheMax, now: options.now }),
      vectors,
      logger,
      batchTokens: settings.embeddingBatchTokens,
      concurrency: settings.embeddingConcurrency,
      timeoutMs: settings.embeddingTimeoutMs,
      retry: {
        ...DEFAULT_RETRY_POLICY,
        maxRetries: settings.embeddingMaxRetries,
        deadlineMs: settings.embeddingRetryDeadlineMs,
      },
      onWrite: options.onVectorsWritten,
    });
    return { db, statements, vectors, embeddings, warnings };
  } catch (error) {
    db.close();
    throw error;
  }
}
