import type { MemoryStatus } from "@claw/memory-api";
import type { EmbeddingWorker } from "@claw/memory-core";
import { urlWithoutSecrets } from "./db/connection-error.js";
import type { Queryable } from "./db/pool.js";
import type { SqlNames } from "./db/sql-names.js";
import type { VectorSearch } from "./embedding/vector-index.js";

export interface StatusSources {
  db: Queryable;
  names: SqlNames;
  /** Where the store is, without credentials. */
  location: string;
  worker: EmbeddingWorker | null;
  vectors: VectorSearch | null;
  schemaVersion: number;
}

interface StatusRow {
  entries: number;
  namespaces: number;
  missing: number;
  bytes: number;
  text_search_config: string | null;
}

/** What status() reports for a PostgreSQL store: counts, sizes and the embedding state (the façade adds why it degrades). */
export async function readStatus(sources: StatusSources): Promise<MemoryStatus> {
  const { db, names, worker } = sources;
  const { rows } = await db.query<StatusRow>(
    `SELECT count(*) AS entries, count(DISTINCT namespace) AS namespaces,
       count(*) FILTER (WHERE embedding IS NULL) AS missing,
       pg_total_relation_size('${names.memories}') + pg_total_relation_size('${names.cache}') AS bytes,
       (SELECT value FROM ${names.meta} WHERE key = 'text_search_config') AS text_search_config
     FROM ${names.memories}`,
  );
  const counts = rows[0] as StatusRow;
  const provider = worker?.provider;
  const pending = worker?.pending ?? 0;
  const status: MemoryStatus = {
    backend: "postgres",
    path: sources.location,
    entries: counts.entries,
    namespaces: counts.namespaces,
    pendingEmbeddings: pending,
    missingEmbeddings: provider ? Math.max(0, counts.missing - pending) : 0,
    embedding: provider
      ? { provider: provider.id, model: provider.model, dimensions: provider.dimensions }
      : null,
    vector: provider && sources.vectors ? sources.vectors.kind : "none",
    fts: true,
    // The configuration the index was built with (applied at open), beside 'simple'.
    ftsEngine: `postgres tsvector (${counts.text_search_config ?? "simple"})`,
    schemaVersion: sources.schemaVersion,
    sizeBytes: Number(counts.bytes),
  };
  return status;
}

/** The connection string without its password, for status() and messages. */
export function describeLocation(connectionString: string | undefined, schema: string): string {
  if (connectionString === undefined) return `postgres (caller's pool)#${schema}`;
  return `${urlWithoutSecrets(connectionString, "") ?? "postgres"}#${schema}`;
}
