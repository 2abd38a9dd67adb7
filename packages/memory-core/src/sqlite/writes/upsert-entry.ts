import type { EmbedJob, EntryWrite, MemoryEntry } from "@claw/memory-api";
import { float32ToBlob } from "../../recall/vector-math.js";
import { contentHash } from "../../text/content-hash.js";
import { toFtsIndexText } from "../../text/tokenizer.js";
import type { StatementCache } from "../schema/statement-cache.js";
import { indexFullText, reindexFullText } from "../search/fts-index.js";
import { indexFields, unindexFields } from "../search/metadata-fields.js";
import type { VectorIndex } from "../vectors/vector-index.js";
import { contextOf, refreshNextTurn } from "./session-turns.js";
import { archiveLiveWhere } from "./version-history.js";
import { writtenEntry } from "./written-entry.js";

export type { EntryWrite };

/** What writeEntry() wrote: the row, the entry's id, creation time and content hash as stored. */
export interface WrittenRow {
  rid: number;
  id: string;
  createdAt: string;
  hash: string;
  /** The entry has no vector yet (jobOf() makes its embedding job). */
  needsVector: boolean;
  /** The key was stored already: its row was rewritten and re-indexed, not added. */
  replaced: boolean;
}

/** The embedding job of a written entry without a vector, or null. */
export function jobOf(write: EntryWrite, row: WrittenRow): EmbedJob | null {
  return row.needsVector
    ? { rid: row.rid, namespace: write.namespace, hash: row.hash, content: write.content }
    : null;
}

// Positional, in this column order: binding 17 named parameters from an object cost ~2.5 µs a row
// (a bulk import spends ~25 µs per entry in all).
// A key that was forgotten continues its history: its next version follows the tombstone.
const INSERT_NEW = `INSERT INTO memories (id, key, content, category, namespace, session_id, importance,
    superseded_by, created_at, updated_at, content_hash, fts_text, source_path, source_start, source_end,
    embedding, embedding_content_hash, context, metadata, expires_at, change_action, change_actor, version)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,
    (SELECT coalesce(max(version), 0) + 1 FROM memory_versions WHERE namespace = ? AND key = ?))
  ON CONFLICT(namespace, key) DO NOTHING`;

const UPDATE_EXISTING = `UPDATE memories SET key = @key, content = @content, category = @category,
    session_id = @session_id, importance = @importance, superseded_by = @superseded_by,
    created_at = @created_at, updated_at = @updated_at, content_hash = @content_hash, fts_text = @fts_text,
    source_path = @source_path, source_start = @source_start, source_end = @source_end,
    context = @context, metadata = @metadata, expires_at = @expires_at,
    version = version + @changed,
    change_action = CASE WHEN @changed THEN @change_action ELSE change_action END,
    change_actor = CASE WHEN @changed THEN @change_actor ELSE change_actor END,
    embedding = CASE WHEN @keep THEN embedding ELSE @embedding END,
    embedding_content_hash = CASE WHEN @keep THEN embedding_content_hash ELSE @embedding_content_hash END
  WHERE rid = @rid`;

interface ExistingRow {
  rid: number;
  id: string;
  content_hash: string;
  created_at: string;
  session_id: string | null;
  has_vector: number;
  indexed_text: string;
  category: string;
  importance: number | null;
  superseded_by: string | null;
  metadata: string | null;
  expires_at: string | null;
  context: string | null;
}

/** Whether a write changes what an entry's history records (a new version), and as what. */
function changeOf(existing: ExistingRow, write: EntryWrite, hash: string): string | null {
  if (write.change !== null) return write.change;
  if (existing.superseded_by === null && write.supersededBy !== null) return "supersede";
  const same =
    existing.content_hash === hash &&
    existing.category === write.category &&
    existing.session_id === write.sessionId &&
    existing.importance === write.importance &&
    existing.superseded_by === write.supersededBy &&
    existing.metadata === write.metadata &&
    existing.expires_at === write.expiresAt &&
    existing.context === write.context;
  return same ? null : "update";
}

/**
 * Upserts by (namespace, key) and keeps the full-text index in step. Must run inside a transaction.
 * An unchanged content keeps its vector; a changed one loses it (and its index row) until the new
 * one is embedded. Returns null when the entry existed and `skipExisting` left it alone.
 */
export function writeEntry(
  statements: StatementCache,
  vectors: VectorIndex,
  write: EntryWrite,
  newId: () => string,
): WrittenRow | null {
  const hash = contentHash(write.content);
  const blob = write.embedding === null ? null : float32ToBlob(write.embedding);
  const ftsText = toFtsIndexText(write.content);
  const indexedText = ftsText ?? write.content;
  const source = write.source;
  // A caller's id may belong to another entry; then this one gets a fresh id. (If the key exists,
  // the insert below does nothing and the entry keeps its own id either way.)
  const idTaken =
    write.idFromCaller && statements.get("SELECT 1 FROM memories WHERE id = ?").get(write.id) !== undefined;
  const id = idTaken ? newId() : write.id;
  // Insert first: a new key, the common case, then costs no lookup.
  const inserted = statements
    .get(INSERT_NEW)
    .run(
      id,
      write.key,
      write.content,
      write.category,
      write.namespace,
      write.sessionId,
      write.importance,
      write.supersededBy,
      write.createdAt,
      write.updatedAt,
      hash,
      ftsText,
      source?.path ?? null,
      source?.startLine ?? null,
      source?.endLine ?? null,
      blob,
      blob === null ? null : hash,
      write.context,
      write.metadata,
      write.expiresAt,
      write.change ?? "create",
      write.actor,
      write.namespace,
      write.key,
    );
  let rid: number;
  let entryId = id;
  let createdAt = write.createdAt;
  let hasVector: boolean;
  const turn = (at: number, createdAt: string) => ({
    namespace: write.namespace,
    sessionId: write.sessionId,
    createdAt,
    rid: at,
    extra: write.context,
  });
  if (inserted.changes > 0) {
    rid = Number(inserted.lastInsertRowid);
    const position = turn(rid, write.createdAt);
    indexFullText(statements, rid, write.key, indexedText, contextOf(statements, position));
    indexFields(statements, rid, write.metadata);
    if (write.sessionId !== null) refreshNextTurn(statements, { ...position, sessionId: write.sessionId });
    hasVector = blob !== null;
  } else if (write.skipExisting) {
    return null;
  } else {
    const existing = statements
      .get(
        `SELECT rid, id, content_hash, created_at, session_id, embedding IS NOT NULL AS has_vector,
           coalesce(fts_text, content) AS indexed_text, category, importance, superseded_by, metadata,
           expires_at, context
         FROM memories WHERE namespace = ? AND key = ?`,
      )
      .get(write.namespace, write.key) as ExistingRow;
    rid = existing.rid;
    entryId = existing.id;
    if (write.keepCreatedAt) createdAt = existing.created_at;
    const keepVector = blob === null && existing.content_hash === hash && existing.has_vector === 1;
    const change = changeOf(existing, write, hash);
    if (change !== null) archiveLiveWhere(statements, "m.rid = ?", [existing.rid]);
    statements.get(UPDATE_EXISTING).run({
      ...storedAsGiven(write),
      created_at: createdAt,
      updated_at: write.updatedAt,
      content_hash: hash,
      fts_text: ftsText,
      changed: change === null ? 0 : 1,
      change_action: change,
      change_actor: write.actor,
      keep: keepVector ? 1 : 0,
      embedding: blob,
      embedding_content_hash: blob === null ? null : hash,
      rid,
    });
    // The row was found by its key, so only the indexed text and the context can have changed;
    // the context (date, previous turn) is cheap to recompute, so the row is always re-indexed.
    if (existing.metadata !== write.metadata) {
      unindexFields(statements, rid, existing.metadata);
      indexFields(statements, rid, write.metadata);
    }
    const position = turn(rid, createdAt);
    reindexFullText(statements, rid, write.key, indexedText, contextOf(statements, position));
    const moved = existing.session_id !== write.sessionId || existing.created_at !== createdAt;
    if (existing.session_id !== null && (moved || existing.indexed_text !== indexedText)) {
      // The turn that followed it in its old place now follows another one.
      refreshNextTurn(statements, { ...turn(rid, existing.created_at), sessionId: existing.session_id });
    }
    if (write.sessionId !== null && (moved || existing.indexed_text !== indexedText)) {
      refreshNextTurn(statements, { ...position, sessionId: write.sessionId });
    }
    if (!keepVector) vectors.remove(rid);
    hasVector = keepVector || blob !== null;
  }
  if (blob !== null) vectors.upsert(rid, write.namespace, blob);
  return {
    rid,
    id: entryId,
    createdAt,
    hash,
    needsVector: !hasVector,
    replaced: inserted.changes === 0,
  };
}

/**
 * The entry get() would return after `write` wrote `row`; built only by writes that return their
 * entries (an import returns a count: building 50k entries was ~6 % of its time).
 */
export function entryOfWrite(statements: StatementCache, write: EntryWrite, row: WrittenRow): MemoryEntry {
  return writtenEntry(statements, {
    ...storedAsGiven(write),
    rid: row.rid,
    id: row.id,
    created_at: row.createdAt,
    updated_at: write.updatedAt,
    namespace: write.namespace,
  });
}

/** The columns a write stores just as it gives them, by column name. */
function storedAsGiven(write: EntryWrite) {
  const source = write.source;
  return {
    key: write.key,
    content: write.content,
    category: write.category,
    session_id: write.sessionId,
    importance: write.importance,
    superseded_by: write.supersededBy,
    source_path: source?.path ?? null,
    source_start: source?.startLine ?? null,
    source_end: source?.endLine ?? null,
    context: write.context,
    metadata: write.metadata,
    expires_at: write.expiresAt,
  };
}
