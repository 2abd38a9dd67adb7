import { MemoryError } from "@claw/memory-api";
import { readMeta, writeMeta } from "../db/meta.js";
import type { Queryable } from "../db/pool.js";
import type { SqlNames } from "../db/sql-names.js";
import { FTS_CONTENT_VERSION, type FtsSource, writeFtsVectors } from "./fts-vector.js";

const BATCH_ROWS = 1000;

/**
 * Recomputes every entry's tsvector, `BATCH_ROWS` at a time in rid order (each batch commits on
 * its own). Returns how many entries there were.
 */
export async function rebuildFullText(
  db: Queryable,
  names: SqlNames,
  textSearchConfig: string,
  onBatch?: (done: number) => void,
): Promise<number> {
  let done = 0;
  for (let after = 0; ; ) {
    const { rows } = await db.query<FtsSource>(
      `SELECT r.rid, r.key, r.content, r.created_at, r.context,
         CASE WHEN r.session_id IS NULL THEN NULL ELSE
           (SELECT p.content FROM ${names.memories} p
            WHERE p.namespace = r.namespace AND p.session_id = r.session_id
              AND (p.created_at, p.rid) < (r.created_at, r.rid)
            ORDER BY p.created_at DESC, p.rid DESC LIMIT 1) END AS previous
       FROM ${names.memories} r WHERE r.rid > $1 ORDER BY r.rid LIMIT ${BATCH_ROWS}`,
      [after],
    );
    if (rows.length === 0) return done;
    await writeFtsVectors(db, names, textSearchConfig, rows);
    done += rows.length;
    after = (rows[rows.length - 1] as { rid: number }).rid;
    onBatch?.(done);
  }
}

/**
 * Checks that `textSearchConfig` exists and, when it differs from the one the index was built
 * with, rebuilds the index. Must run under the schema lock.
 */
export async function applyTextSearchConfig(
  client: Queryable,
  names: SqlNames,
  textSearchConfig: string,
): Promise<void> {
  try {
    await client.query("SELECT $1::regconfig", [textSearchConfig]);
  } catch (error) {
    throw MemoryError.invalidInput(
      "textSearchConfig",
      `no text search configuration ${JSON.stringify(textSearchConfig)} on this server (see \\dF in psql)`,
      error,
    );
  }
  const recorded = await readMeta(client, names, "text_search_config");
  const content = await readMeta(client, names, "fts_content_version");
  if (recorded === textSearchConfig && content === FTS_CONTENT_VERSION) return;
  // A store indexed with another configuration, or before the context was indexed, is rebuilt.
  if (recorded !== undefined) await rebuildFullText(client, names, textSearchConfig);
  await writeMeta(client, names, {
    text_search_config: textSearchConfig,
    fts_content_version: FTS_CONTENT_VERSION,
  });
}
