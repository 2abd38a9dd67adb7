import type { MemoryEntry } from "@claw/memory-api";
import { isMemoryError, MemoryError } from "@claw/memory-api";
import type { MemorySettings } from "../config/config-schema.js";
import { metadataOf } from "../metadata/metadata-value.js";
import type { EntryWrite } from "../sqlite/writes/upsert-entry.js";
import { scoreImportance } from "../text/importance.js";
import { expiryAfter } from "../text/time-bound.js";
import { isoOf } from "../timestamps.js";
import * as check from "../validate-input.js";

/** Longest MemoryEntry.context accepted, in UTF-8 bytes. */
export const MAX_CONTEXT_BYTES = 4096;

/** The fields store() and import() accept for one entry. */
export type EntryInput = Omit<Partial<MemoryEntry>, "expiresAt"> & {
  embedding?: Float32Array | number[];
  expiresAt?: string | Date;
  /** An age from now ("7d"): store() only. */
  ttl?: string;
};

/**
 * Validates one entry and fills what was not given. `prefix` names the entry in messages
 * (`entries[3].content`), or makes that name when there is an error; store() passes "". Imports
 * keep their ids, times and vectors.
 */
export function toEntryWrite(
  input: EntryInput,
  prefix: string | (() => string),
  settings: MemorySettings,
  now: Date,
  newId: () => string,
  isImport: boolean,
  dimensions?: number,
): EntryWrite {
  const name = () => (typeof prefix === "string" ? prefix : prefix());
  if (input === null || typeof input !== "object") {
    throw MemoryError.invalidInput(name() || "entry", "expected an object");
  }
  // Fields are checked under their own names and the prefix is added only to an error: building
  // `entries[i].name` for every field of every entry was ~4 % of a bulk import.
  try {
    return checkedWrite(input, settings, now, newId, isImport, dimensions);
  } catch (error) {
    const entry = name();
    throw entry === "" ? error : prefixed(error, entry);
  }
}

function checkedWrite(
  input: EntryInput,
  settings: MemorySettings,
  now: Date,
  newId: () => string,
  isImport: boolean,
  dimensions: number | undefined,
): EntryWrite {
  const key = check.requireText(input.key, "key", 4096);
  const content = check.requireText(input.content, "content", settings.maxContentBytes);
  const category = check.categoryOf(input.category, "category");
  const nowIso = isoOf(now);
  const updatedAt = isImport
    ? (check.dateOf(input.updatedAt ?? input.timestamp, "updatedAt") ?? nowIso)
    : nowIso;
  const createdAt = isImport ? (check.dateOf(input.createdAt, "createdAt") ?? updatedAt) : nowIso;
  // Checked in this order so that the first bad field is the one reported.
  const namespace = check.namespaceOf(input.namespace, "namespace", false);
  const sessionId = check.optionalText(input.sessionId, "sessionId") ?? null;
  const importance = check.importanceOf(input.importance, "importance") ?? scoreImportance(content, category);
  const supersededBy = isImport
    ? (check.optionalText(input.supersededBy, "supersededBy", 4096) ?? null)
    : null;
  const givenId = isImport ? check.optionalText(input.id, "id", 256) : undefined;
  const context = check.optionalText(input.context, "context", MAX_CONTEXT_BYTES) ?? null;
  const metadata = metadataOf(input.metadata, "metadata")?.json ?? null;
  const expiresAt = expiresAtOf(input, now, isImport);
  return {
    key,
    content,
    category,
    namespace,
    sessionId,
    importance,
    supersededBy,
    id: givenId ?? newId(),
    idFromCaller: givenId !== undefined,
    createdAt,
    updatedAt,
    embedding: isImport ? embeddingOf(input.embedding, "embedding", dimensions) : null,
    source: isImport ? sourceOf(input.source, "source") : null,
    context,
    metadata,
    expiresAt,
    change: null,
    actor: "library",
    keepCreatedAt: !isImport,
  };
}

/**
 * `expiresAt` (RFC 3339 or a Date) or store()'s `ttl`, as RFC 3339 UTC. A store() that would expire
 * at once is refused; an import keeps what it is given (hygiene removes it).
 */
function expiresAtOf(input: EntryInput, now: Date, isImport: boolean): string | null {
  const ttl = isImport ? undefined : input.ttl;
  if (ttl !== undefined && input.expiresAt !== undefined && input.expiresAt !== null)
    throw MemoryError.invalidInput("ttl", "give expiresAt or ttl, not both");
  const at = ttl !== undefined ? expiryAfter(ttl, now, "ttl") : check.dateOf(input.expiresAt, "expiresAt");
  if (at === undefined) return null;
  if (!isImport && Date.parse(at) <= now.getTime())
    throw MemoryError.invalidInput("expiresAt", `is not in the future (${at})`);
  return at;
}

/** An INVALID_INPUT error of one entry's field, named within the whole input (`entries[3].key`). */
function prefixed(error: unknown, prefix: string): unknown {
  if (!isMemoryError(error, "INVALID_INPUT") || error.field === undefined) return error;
  // invalidInput() writes the message as `${field}: ${reason}`.
  const reason = error.message.slice(error.field.length + 2);
  return MemoryError.invalidInput(`${prefix}.${error.field}`, reason, error.cause);
}

/** A vector is kept only when it fits the current provider; otherwise the entry is re-embedded. */
function embeddingOf(value: unknown, field: string, dimensions: number | undefined): Float32Array | null {
  if (value === undefined || value === null) return null;
  let vector: Float32Array;
  if (value instanceof Float32Array) vector = value;
  else if (Array.isArray(value) && value.every((x) => typeof x === "number" && Number.isFinite(x))) {
    vector = Float32Array.from(value);
  } else {
    throw MemoryError.invalidInput(field, "expected a Float32Array or an array of finite numbers");
  }
  return dimensions !== undefined && vector.length === dimensions ? vector : null;
}

export function sourceOf(value: unknown, field: string): EntryWrite["source"] {
  if (value === undefined || value === null) return null;
  const source = value as { path?: unknown; startLine?: unknown; endLine?: unknown };
  const path = check.requireText(source.path, `${field}.path`, 4096);
  const startLine = source.startLine;
  const endLine = source.endLine;
  if (!Number.isInteger(startLine) || !Number.isInteger(endLine) || (startLine as number) < 1) {
    throw MemoryError.invalidInput(field, "expected whole-number startLine ≥ 1 and endLine");
  }
  return { path, startLine: startLine as number, endLine: endLine as number };
}

/**
 * Checks entries the way import() will, without writing anything: returns one error per invalid
 * entry (by index), so a caller can report every bad line of a file at once. Fields are named
 * within the entry (`content`, `source.path`; `entry` when it is not an object): the index says
 * which one.
 */
export function validateEntries(
  entries: readonly unknown[],
  settings: MemorySettings,
  dimensions?: number,
): Array<{ index: number; error: MemoryError }> {
  const problems: Array<{ index: number; error: MemoryError }> = [];
  const now = new Date();
  entries.forEach((entry, index) => {
    try {
      toEntryWrite(entry as EntryInput, "", settings, now, () => "", true, dimensions);
    } catch (error) {
      if (!(error instanceof MemoryError)) throw error;
      problems.push({ index, error });
    }
  });
  return problems;
}
