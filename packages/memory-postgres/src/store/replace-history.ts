// MemoryBackend.replaceHistory() on PostgreSQL: the history a backup carried, put back after its
// entries were imported. In one transaction, for each (namespace, key) given: the key's rows in
// the versions table are replaced by the non-current versions given (tombstones included), and its
// live row takes the version number, action, actor and time of the current one. The archive
// trigger would record that change of the live row as a new version (and recompute its number and
// action), so the row is deleted and inserted again as it was but for those four columns, in one
// statement (no trigger fires on DELETE or INSERT; the rid, vector and every other column stay).
import type { MemoryVersion } from "@claw/memory-api";
import { inTransaction, type Pool, type Queryable } from "../db/pool.js";
import type { SqlNames } from "../db/sql-names.js";

/** Versions inserted per statement. */
const CHUNK_ROWS = 500;

/**
 * Every column of claw_memories but the four replaceHistory() sets (version, change_action,
 * change_actor, updated_at). A column added to the table must be added here, or the rows moved
 * would lose it (replace-history.test.ts compares every column of the rows before and after).
 */
const KEPT_COLUMNS = `rid, id, key, content, category, namespace, session_id, importance, superseded_by,
  created_at, content_hash, fts, source_path, source_start, source_end, embedding, embedding_hash,
  embed_claimed_until, context, metadata, expires_at`;

interface KeyHistory {
  namespace: string;
  key: string;
  versions: MemoryVersion[];
}

/** Returns how many versions were written (the current ones included). */
export async function replaceHistory(
  pool: Pool,
  names: SqlNames,
  versions: readonly MemoryVersion[],
): Promise<number> {
  const byKey = new Map<string, KeyHistory>();
  for (const version of versions) {
    const id = `${version.namespace}\u0000${version.key}`;
    let history = byKey.get(id);
    if (history === undefined) {
      history = { namespace: version.namespace, key: version.key, versions: [] };
      byKey.set(id, history);
    }
    history.versions.push(version);
  }
  return inTransaction(pool, async (tx) => {
    const all = [...byKey.values()];
    // Locked in one order, so that two restores (or a restore and a write) cannot deadlock.
    const { rows } = await tx.query<{ namespace: string; key: string }>(
      `SELECT m.namespace, m.key FROM ${names.memories} m
       JOIN unnest($1::text[], $2::text[]) AS k(namespace, key) ON m.namespace = k.namespace AND m.key = k.key
       ORDER BY m.namespace, m.key FOR UPDATE OF m`,
      [all.map((h) => h.namespace), all.map((h) => h.key)],
    );
    const live = new Set(rows.map((r) => `${r.namespace}\u0000${r.key}`));
    const replaced: KeyHistory[] = [];
    const currents: MemoryVersion[] = [];
    const kept: MemoryVersion[] = [];
    for (const [id, history] of byKey) {
      const current = history.versions.find((v) => v.current);
      const isLive = live.has(id);
      // A live entry the versions do not describe (not in the backup) keeps its own history.
      if (isLive && current === undefined) continue;
      replaced.push(history);
      for (const version of history.versions) {
        if (version === current && isLive) currents.push(version);
        // A current version with no entry to carry it stays an ordinary version.
        else kept.push(version.current ? { ...version, current: false } : version);
      }
    }
    if (replaced.length === 0) return 0;
    await tx.query(
      `DELETE FROM ${names.versions} v USING unnest($1::text[], $2::text[]) AS k(namespace, key)
       WHERE v.namespace = k.namespace AND v.key = k.key`,
      [replaced.map((h) => h.namespace), replaced.map((h) => h.key)],
    );
    for (let i = 0; i < kept.length; i += CHUNK_ROWS) {
      await insertVersions(tx, names, kept.slice(i, i + CHUNK_ROWS));
    }
    if (currents.length > 0) await setCurrent(tx, names, currents);
    return kept.length + currents.length;
  });
}

async function insertVersions(db: Queryable, names: SqlNames, rows: readonly MemoryVersion[]): Promise<void> {
  await db.query(
    `INSERT INTO ${names.versions} (namespace, key, version, id, action, actor, at, deleted, content,
       category, session_id, importance, superseded_by, metadata, expires_at, context, source_path,
       source_start, source_end)
     SELECT namespace, key, version, id, action, actor, at, deleted, content, category, session_id,
       importance, superseded_by, metadata::jsonb, expires_at, context, source_path, source_start, source_end
     FROM unnest($1::text[], $2::text[], $3::int[], $4::text[], $5::text[], $6::text[], $7::timestamptz[],
       $8::boolean[], $9::text[], $10::text[], $11::text[], $12::float8[], $13::text[], $14::text[],
       $15::timestamptz[], $16::text[], $17::text[], $18::int[], $19::int[])
       AS v(namespace, key, version, id, action, actor, at, deleted, content, category, session_id,
         importance, superseded_by, metadata, expires_at, context, source_path, source_start, source_end)`,
    [
      rows.map((v) => v.namespace),
      rows.map((v) => v.key),
      rows.map((v) => v.version),
      rows.map((v) => v.id),
      rows.map((v) => v.action),
      rows.map((v) => v.actor),
      rows.map((v) => v.at),
      rows.map((v) => v.deleted),
      rows.map((v) => v.content),
      rows.map((v) => v.category),
      rows.map((v) => v.sessionId ?? null),
      rows.map((v) => v.importance ?? null),
      rows.map((v) => v.supersededBy ?? null),
      rows.map((v) => (v.metadata === undefined ? null : JSON.stringify(v.metadata))),
      rows.map((v) => v.expiresAt ?? null),
      rows.map((v) => v.context ?? null),
      rows.map((v) => v.source?.path ?? null),
      rows.map((v) => v.source?.startLine ?? null),
      rows.map((v) => v.source?.endLine ?? null),
    ],
  );
}

/** The live rows of `currents`' keys take their number, action, actor and time (rows locked already). */
async function setCurrent(db: Queryable, names: SqlNames, currents: readonly MemoryVersion[]): Promise<void> {
  await db.query(
    `WITH target AS (
       SELECT * FROM unnest($1::text[], $2::text[], $3::int[], $4::text[], $5::text[], $6::timestamptz[])
         AS t(namespace, key, version, action, actor, at)
     ), gone AS (
       DELETE FROM ${names.memories} m USING target t WHERE m.namespace = t.namespace AND m.key = t.key
       RETURNING m.*, t.version AS new_version, t.action AS new_action, t.actor AS new_actor, t.at AS new_at
     )
     INSERT INTO ${names.memories} (${KEPT_COLUMNS}, version, change_action, change_actor, updated_at)
     OVERRIDING SYSTEM VALUE
     SELECT ${KEPT_COLUMNS}, new_version, new_action, new_actor, new_at FROM gone`,
    [
      currents.map((v) => v.namespace),
      currents.map((v) => v.key),
      currents.map((v) => v.version),
      currents.map((v) => v.action),
      currents.map((v) => v.actor),
      currents.map((v) => v.at),
    ],
  );
}
