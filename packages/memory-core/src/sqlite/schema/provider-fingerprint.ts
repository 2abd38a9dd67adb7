import type { EmbeddingProvider, Logger } from "@claw/memory-api";
import type { Database } from "better-sqlite3";
import type { VectorIndex } from "../vectors/vector-index.js";
import type { MetaStore } from "./meta-store.js";

/**
 * Vectors of one (provider, model, dimensions) only. When the configured provider differs from
 * the one recorded in `meta`, the old vectors are set aside (cleared) so that they are never
 * compared with new ones; backfill/reindex re-embeds the entries, resumably, batch by batch.
 */
export function applyFingerprint(
  db: Database,
  meta: MetaStore,
  vectors: VectorIndex,
  provider: EmbeddingProvider,
  logger: Logger,
): void {
  const fingerprint = `${provider.id}\u0000${provider.model}\u0000${provider.dimensions}`;
  const recorded = meta.get("embedding_fingerprint");
  if (recorded !== fingerprint) {
    db.transaction(() => {
      const cleared = db
        .prepare(
          "UPDATE memories SET embedding = NULL, embedding_content_hash = NULL WHERE embedding IS NOT NULL",
        )
        .run().changes;
      vectors.clear();
      meta.set("embedding_fingerprint", fingerprint);
      meta.set("embedding_provider", provider.id);
      meta.set("embedding_model", provider.model);
      meta.set("embedding_dimensions", String(provider.dimensions));
      if (cleared > 0) {
        logger.warn(
          "embedding provider, model or dimensions changed: old vectors set aside for re-embedding",
          {
            cleared,
            provider: provider.id,
            model: provider.model,
            dimensions: provider.dimensions,
          },
        );
      }
    }).immediate();
  }
  vectors.ensure(provider.dimensions);
}
