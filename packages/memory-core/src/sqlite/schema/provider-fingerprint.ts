import type { EmbeddingProvider, Logger } from "@claw/memory-api";
import type { Database } from "better-sqlite3";
import type { VectorIndex } from "../vectors/vector-index.js";
import { SWEEP_AFTER } from "../vectors/vector-rows.js";
import type { MetaStore } from "./meta-store.js";

/**
 * Vectors of one (provider, model, dimensions) only. When the configured provider differs from
 * the one recorded in `meta`, the old vectors are set aside (cleared) so that they are never
 * compared with new ones; backfill/reindex re-embeds the entries, resumably, batch by batch. The
 * highest row id at that moment is recorded: the sweep for lost jobs leaves the rows up to it alone.
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
  const lastRid = () => String(db.prepare("SELECT coalesce(max(rid), 0) FROM memories").pluck().get());
  if (recorded !== fingerprint) {
    db.transaction(() => {
      // Entries already there wait for an explicit backfill; later ones are swept when left behind.
      meta.set(SWEEP_AFTER, lastRid());
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
  } else if (meta.get(SWEEP_AFTER) === undefined) {
    // A store from before the sweep: what is missing now may be on purpose.
    meta.set(SWEEP_AFTER, lastRid());
  }
  vectors.ensure(provider.dimensions);
}
