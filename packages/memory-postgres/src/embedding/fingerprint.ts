import type { EmbeddingProvider, Logger } from "@claw/memory-api";
import { readMeta, writeMeta } from "../db/meta.js";
import type { Queryable } from "../db/pool.js";
import type { SqlNames } from "../db/sql-names.js";

/**
 * Vectors of one (provider, model, dimensions) only. When the configured provider differs from the
 * one recorded in `claw_meta`, the old vectors are set aside (cleared, in one transaction with the
 * new record) so that they are never compared with new ones; backfill/reindex re-embeds the
 * entries, resumably. Must run under the schema lock, so two servers never both apply it.
 */
export async function applyFingerprint(
  client: Queryable,
  names: SqlNames,
  provider: EmbeddingProvider,
  logger: Logger,
): Promise<number> {
  const fingerprint = `${provider.id}\u0001${provider.model}\u0001${provider.dimensions}`;
  if ((await readMeta(client, names, "embedding_fingerprint")) === fingerprint) return 0;
  await client.query("BEGIN");
  try {
    const cleared = await client.query(
      `UPDATE ${names.memories} SET embedding = NULL, embedding_hash = NULL, embed_claimed_until = NULL
       WHERE embedding IS NOT NULL`,
    );
    await writeMeta(client, names, {
      embedding_fingerprint: fingerprint,
      embedding_provider: provider.id,
      embedding_model: provider.model,
      embedding_dimensions: String(provider.dimensions),
    });
    await client.query("COMMIT");
    const count = cleared.rowCount ?? 0;
    if (count > 0) {
      logger.warn("embedding provider, model or dimensions changed: old vectors set aside for re-embedding", {
        cleared: count,
        provider: provider.id,
        model: provider.model,
        dimensions: provider.dimensions,
      });
    }
    return count;
  } catch (error) {
    // The error that brought us here is the one to report; a failed ROLLBACK ends with the connection.
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  }
}
