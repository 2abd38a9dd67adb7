import {
  type BackendOpenOptions,
  EmbeddingWorker,
  type VectorRows,
  workerSettingsOf,
} from "@claw/memory-core";
import { acceptsCopyIn } from "./db/copy-in.js";
import { migrate, withSchemaLock } from "./db/migrate.js";
import { createPool, endPool, type Pool, type Queryable, typed } from "./db/pool.js";
import { type SqlNames, sqlNames } from "./db/sql-names.js";
import { prepareStatementsOn } from "./db/statement-names.js";
import { createTableAnalyzer, type TableAnalyzer } from "./db/table-analyzer.js";
import { type BulkIndex, createBulkIndex } from "./embedding/bulk-index.js";
import { cacheCopyWriter } from "./embedding/cache-copy.js";
import { postgresVectorRows } from "./embedding/claims.js";
import { createEmbeddingCache, type EmbeddingCache } from "./embedding/embedding-cache.js";
import { applyFingerprint } from "./embedding/fingerprint.js";
import { createIndexBuilds } from "./embedding/index-builds.js";
import { createPreClaims, type PreClaims } from "./embedding/pre-claims.js";
import { loadPgvector, type VectorSearch, vectorSearchFor } from "./embedding/vector-index.js";
import { applyTextSearchConfig } from "./store/rebuild-fts.js";

export interface OpenStoreOptions extends BackendOpenOptions {
  url?: string;
  pool?: Pool;
  poolMax: number;
  schema: string;
  textSearchConfig: string;
  /** Statements are prepared once per connection (PostgresMemoryOptions.preparedStatements). */
  preparedStatements: boolean;
  /** Most memory (MB) an HNSW build asks for (PostgresMemoryOptions.indexBuildMemoryMb). */
  indexBuildMemoryMb: number;
  /** Vectors were written by this server: recall caches must forget their results. */
  onVectorsWritten: () => void;
}

/** The parts a PostgresMemory composes, opened and wired in order. */
export interface StoreParts {
  pool: Pool;
  ownsPool: boolean;
  db: Queryable;
  names: SqlNames;
  schemaVersion: number;
  vectors: VectorSearch | null;
  worker: EmbeddingWorker | null;
  /** The rows as the worker claims them. */
  rows: VectorRows;
  /** Why the store runs degraded, for status(). */
  warnings: string[];
  /** Keeps the planner's statistics current after bulk changes. */
  analyzer: TableAnalyzer;
  /** The embedding cache the worker uses (null without a provider): writes carry its new entries. */
  cache: EmbeddingCache | null;
  /** Sets the HNSW index aside during a bulk import into a small table. */
  bulkIndex: BulkIndex;
  /** Whether the server takes `COPY … FROM STDIN` (not PGlite): imports stream their rows by COPY. */
  copyIn: boolean;
  /**
   * With deferred embedding, the lease (ms) a write claims the rows it leaves without a vector
   * for, for this process's worker; null: writes claim nothing.
   */
  claimLeaseMs: number | null;
  /** The rows writes claimed so: the worker's claims of them need no statement. */
  preClaims: PreClaims;
}

/**
 * Connects, then — holding the schema's advisory lock, so that servers starting together take
 * turns — migrates, loads pgvector, applies the embedding fingerprint and the text search
 * configuration, and creates the HNSW index for the provider's dimensions.
 */
export async function openStore(options: OpenStoreOptions): Promise<StoreParts> {
  const names = sqlNames(options.schema);
  const ownsPool = options.pool === undefined;
  const pool = options.pool ?? createPool({ connectionString: options.url as string, max: options.poolMax });
  if (options.preparedStatements) prepareStatementsOn(pool);
  const db = typed(pool, options.preparedStatements);
  try {
    const warnings: string[] = [];
    const indexBuilds = createIndexBuilds({
      names,
      maxMemoryMb: options.indexBuildMemoryMb,
      warnings,
      logger: options.logger,
    });
    const { provider } = options;
    const opened = await withSchemaLock(pool, names, async (client) => {
      const schemaVersion = await migrate(client, names);
      await applyTextSearchConfig(client, names, options.textSearchConfig);
      if (provider === null) return { schemaVersion, vectors: null };
      const pgvector = await loadPgvector(client);
      if (pgvector.reason !== undefined) warnings.push(pgvector.reason);
      const { search: vectors, unindexed } = vectorSearchFor(pgvector, provider.dimensions);
      if (unindexed !== undefined) warnings.push(unindexed);
      await applyFingerprint(client, names, provider, options.logger);
      await indexBuilds.ensure(client, vectors);
      return { schemaVersion, vectors };
    });
    const analyzer = createTableAnalyzer(db, names, options.logger);
    // Imports and an import's cache entries go by COPY where the server takes it.
    const copyIn = await acceptsCopyIn(db);
    const cache =
      provider === null
        ? null
        : createEmbeddingCache(db, names, {
            maxEntries: options.settings.embeddingCacheMax,
            now: options.now,
            ...(copyIn ? { writeMany: cacheCopyWriter(pool, names) } : {}),
          });
    // Vector writes move the change stamp and carry the cache's new entries (claims.ts).
    const leaseMs = options.settings.embeddingRetryDeadlineMs + options.settings.embeddingTimeoutMs;
    const claims = postgresVectorRows(db, names, leaseMs, cache);
    const preClaims = createPreClaims();
    const bulkIndex = createBulkIndex({
      pool,
      db,
      names,
      search: opened.vectors,
      indexBuilds,
      warnings,
      logger: options.logger,
    });
    // A backfill gives many rows their vector: the planner must learn that they have one. The
    // vectors of a bulk import's rows, written in the background, keep its index aside meanwhile.
    const rows: VectorRows = {
      ...claims,
      // A deferred job of a row its write claimed here is the row as written: no UPDATE to claim it.
      async claim(rids, limit, afterRid) {
        if (rids === null) return claims.claim(rids, limit, afterRid);
        const mine = preClaims.take(rids);
        if (mine.length === 0) return claims.claim(rids, limit, afterRid);
        const taken = new Set(mine.map((job) => job.rid));
        const rest = rids.filter((rid) => !taken.has(rid));
        const claimed = rest.length === 0 ? [] : await claims.claim(rest, rest.length, afterRid);
        return [...mine, ...claimed].sort((a, b) => a.rid - b.rid);
      },
      async write(jobs, vectors) {
        bulkIndex.pause();
        try {
          const written = await claims.write(jobs, vectors);
          await analyzer.changed(written);
          return written;
        } finally {
          bulkIndex.afterWrite();
        }
      },
    };
    const worker =
      cache === null || provider === null
        ? null
        : new EmbeddingWorker({
            rows,
            cache,
            provider,
            logger: options.logger,
            ...workerSettingsOf(options.settings),
            onWrite: () => options.onVectorsWritten(),
          });
    if (options.settings.embeddingBatchApi) {
      warnings.push(
        "embedding_batch_api is not supported by the postgres backend: backfill uses normal requests",
      );
    }
    const claimLeaseMs = worker !== null && (options.settings.deferEmbedding ?? true) ? leaseMs : null;
    return {
      pool,
      ownsPool,
      db,
      names,
      ...opened,
      worker,
      rows,
      warnings,
      analyzer,
      cache,
      bulkIndex,
      copyIn,
      claimLeaseMs,
      preClaims,
    };
  } catch (error) {
    // The error that brought us here is the one to report; the pool's sockets close with the process.
    if (ownsPool) await endPool(pool).catch(() => {});
    throw error;
  }
}
