import type { EmbeddingProvider, Logger } from "@claw/memory-api";
import { readMeta, writeMeta } from "../db/meta.js";
import type { Queryable } from "../db/pool.js";
import type { SqlNames } from "../db/sql-names.js";

/**
 * Vectors of one (provider, model, dimensions) only. When the configured provider differs from the
 * one recorded in `claw_meta`, the old vectors are set aside (cleared, in one transaction with the
 * new record) so that they are never compared with new ones; backfill/reindex re-embeds the
 * entries, resumably. Must run under the schema lock, so two servers never both apply it. The
 * highest row id at that moment is recorded: the sweep for lost jobs leaves the rows up to it alone.
 */
export async function applyFingerprint(
  client: Queryable,
  names: SqlNames,
  provider: EmbeddingProvider,
  logger: Logger,
): Promise<number> {
  const fingerprint = `${provider.id}\u0001${provider.model}\u0001${provider.dimensions}`;
  if ((await readMeta(client, names, "embedding_fingerprint")) === fingerprint) {
    // A store from before the sweep: what is missing now may be on purpose.
    if ((await readMeta(client, names, SWEEP_AFTER)) === undefined) {
      await writeMeta(client, names, { [SWEEP_AFTER]: await lastRid(client, names) });
    }
    return 0;
  }
  await client.query("BEGIN");
  try {
    const cleared = await client.query(
      `UPDATE ${names.memories} SET embedding = NULL, embedding_hash = NULL, embed_claimed_until = NULL
       WHERE embedding IS NOT NULL`,
    );
    await writeMeta(client, names, {
      // Entries already there wait for an explicit backfill; later ones are swept when left behind.
      [SWEEP_AFTER]: await lastRid(client, names),
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

/** claw_meta key: the highest row id when the current provider was recorded (VectorRows.sweepAfter). */
export const SWEEP_AFTER = "embedding_sweep_after";

async function lastRid(client: Queryable, names: SqlNames): Promise<string> {
  const { rows } = await client.query<{ rid: string }>(
    `SELECT coalesce(max(rid), 0)::text AS rid FROM ${names.memories}`,
  );
  return rows[0]?.rid ?? "0";
}
