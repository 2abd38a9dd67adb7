import type { MemoryCategory, MemoryEntry } from "@claw/memory-api";
import { float32ToBlob } from "../recall/vector-math.js";
import { toFtsIndexText } from "../text/tokenizer.js";
import { contentHash } from "./content-hash.js";
import type { EmbedJob } from "./embedding-pipeline.js";
import { entryColumns, type MemoryRow, rowToEntry } from "./entry-row.js";
import type { StatementCache } from "./statement-cache.js";
import type { VectorIndex } from "./vector-index.js";

/** One validated entry ready to be written (store() and import() both produce these). */
export interface EntryWrite {
  key: string;
  content: string;
  category: MemoryCategory;
  namespace: string;
  sessionId: string | null;
  importance: number;
  supersededBy: string | null;
  /** Kept on update; used on insert. */
  id: string;
  createdAt: string;
  updatedAt: string;
  /** Only a vector of the store's current dimensions is given here. */
  embedding: Float32Array | null;
  source: { path: string; startLine: number; endLine: number } | null;
  /** When false (store()), an update keeps the row's created_at; import() carries its own. */
  keepCreatedAt: boolean;
}

export interface WriteResult {
  entry: MemoryEntry;
  /** Set when the entry still needs a vector. */
  job: EmbedJob | null;
}

/**
 * Upserts by (namespace, key). Must run inside a transaction. An unchanged content keeps its
 * vector; a changed one loses it (and its index row) until the new one is embedded.
 */
export function writeEntry(
  statements: StatementCache,
  vectors: VectorIndex,
  write: EntryWrite,
  newId: () => string,
): WriteResult {
  const hash = contentHash(write.content);
  const existing = statements
    .get(
      "SELECT rid, id, content_hash, created_at, embedding IS NOT NULL AS has_vector FROM memories WHERE namespace = ? AND key = ?",
    )
    .get(write.namespace, write.key) as
    | { rid: number; id: string; content_hash: string; created_at: string; has_vector: number }
    | undefined;
  const blob = write.embedding === null ? null : float32ToBlob(write.embedding);
  const fields = {
    key: write.key,
    content: write.content,
    category: write.category,
    namespace: write.namespace,
    session_id: write.sessionId,
    importance: write.importance,
    superseded_by: write.supersededBy,
    updated_at: write.updatedAt,
    content_hash: hash,
    fts_text: toFtsIndexText(write.content),
    source_path: write.source?.path ?? null,
    source_start: write.source?.startLine ?? null,
    source_end: write.source?.endLine ?? null,
  };
  let rid: number;
  let hasVector: boolean;
  if (existing === undefined) {
    const idTaken = statements.get("SELECT 1 FROM memories WHERE id = ?").get(write.id) !== undefined;
    rid = Number(
      statements
        .get(
          `INSERT INTO memories (id, key, content, category, namespace, session_id, importance, superseded_by,
             created_at, updated_at, content_hash, fts_text, source_path, source_start, source_end,
             embedding, embedding_content_hash)
           VALUES (@id, @key, @content, @category, @namespace, @session_id, @importance, @superseded_by,
             @created_at, @updated_at, @content_hash, @fts_text, @source_path, @source_start, @source_end,
             @embedding, @embedding_content_hash)`,
        )
        .run({
          ...fields,
          id: idTaken ? newId() : write.id,
          created_at: write.createdAt,
          embedding: blob,
          embedding_content_hash: blob === null ? null : hash,
        }).lastInsertRowid,
    );
    hasVector = blob !== null;
  } else {
    rid = existing.rid;
    const keepVector = blob === null && existing.content_hash === hash && existing.has_vector === 1;
    statements
      .get(
        `UPDATE memories SET key = @key, content = @content, category = @category, session_id = @session_id,
           importance = @importance, superseded_by = @superseded_by, created_at = @created_at,
           updated_at = @updated_at, content_hash = @content_hash, fts_text = @fts_text,
           source_path = @source_path, source_start = @source_start, source_end = @source_end,
           embedding = CASE WHEN @keep THEN embedding ELSE @embedding END,
           embedding_content_hash = CASE WHEN @keep THEN embedding_content_hash ELSE @embedding_content_hash END
         WHERE rid = @rid`,
      )
      .run({
        ...fields,
        rid,
        created_at: write.keepCreatedAt ? existing.created_at : write.createdAt,
        keep: keepVector ? 1 : 0,
        embedding: blob,
        embedding_content_hash: blob === null ? null : hash,
      });
    if (!keepVector) vectors.remove(rid);
    hasVector = keepVector || blob !== null;
  }
  if (blob !== null) vectors.upsert(rid, write.namespace, blob);
  const row = statements
    .get(`SELECT ${entryColumns(false)} FROM memories m WHERE m.rid = ?`)
    .get(rid) as MemoryRow;
  return {
    entry: rowToEntry(row),
    job: hasVector ? null : { rid, namespace: write.namespace, hash, content: write.content },
  };
}
