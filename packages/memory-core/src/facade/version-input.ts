// Memory.replaceHistory()'s input: versions as history() returns them (the `{"history": …}` lines
// of a PostgreSQL backup), checked field by field, then as the history of each key: no version
// number twice, at most one current version, and that one the newest.
import type { MemoryChange, MemoryVersion } from "@claw/memory-api";
import { isMemoryError, MEMORY_CHANGES, MemoryError } from "@claw/memory-api";
import type { MemorySettings } from "../config/config-schema.js";
import { metadataOf } from "../metadata/metadata-value.js";
import * as check from "../validate-input.js";
import { MAX_CONTEXT_BYTES, sourceOf } from "./entry-write.js";

/** Versions are stored as 32-bit integers. */
const MAX_VERSION = 2_147_483_647;

/** One problem of a list of versions: the index of the version and the error (fields unprefixed). */
export interface VersionProblem {
  index: number;
  error: MemoryError;
}

/**
 * Whether a parsed line of a backup file is a history line, `{"history": {...}}`: an object whose
 * only field is `history` (an entry line always has a `key`). `import` skips these lines; `restore`
 * on PostgreSQL puts them back with replaceHistory().
 */
export function isHistoryLine(value: unknown): value is { history: unknown } {
  return (
    value !== null &&
    typeof value === "object" &&
    !Array.isArray(value) &&
    Object.hasOwn(value, "history") &&
    Object.keys(value).length === 1
  );
}

/**
 * Checks versions the way replaceHistory() will, without writing anything: one error per bad
 * version (by index), its field named within the version (`version`, `source.path`), so that a
 * caller can report every bad line of a file at once. Give all the versions of a key together.
 */
export function validateVersions(versions: readonly unknown[], settings: MemorySettings): VersionProblem[] {
  const problems: VersionProblem[] = [];
  const valid: Array<{ index: number; version: MemoryVersion }> = [];
  versions.forEach((input, index) => {
    try {
      valid.push({ index, version: toVersion(input, settings) });
    } catch (error) {
      if (!(error instanceof MemoryError)) throw error;
      problems.push({ index, error });
    }
  });
  problems.push(...keyProblems(valid));
  return problems.sort((a, b) => a.index - b.index);
}

/**
 * replaceHistory()'s argument as versions, validated (INVALID_INPUT naming `history[3].version`),
 * each also passed to `checkText` (the field named alike) for text the store cannot hold.
 */
export function versionsOf(
  history: unknown,
  settings: MemorySettings,
  checkText?: (value: string | null | undefined, field: string) => void,
): MemoryVersion[] {
  if (history === null || typeof history !== "object" || !(Symbol.iterator in history))
    throw MemoryError.invalidInput("history", "expected an array (or iterable) of versions");
  const versions: MemoryVersion[] = [];
  let index = 0;
  for (const input of history as Iterable<unknown>) {
    const at = index++;
    let version: MemoryVersion;
    try {
      version = toVersion(input, settings);
      if (checkText !== undefined) checkVersionText(version, checkText);
    } catch (error) {
      throw prefixed(error, `history[${at}]`);
    }
    versions.push(version);
  }
  const [first] = keyProblems(versions.map((version, i) => ({ index: i, version })));
  if (first !== undefined) throw prefixed(first.error, `history[${first.index}]`);
  return versions;
}

/** One version, checked and normalised (RFC 3339 UTC times; absent optional fields left out). */
function toVersion(input: unknown, settings: MemorySettings): MemoryVersion {
  if (input === null || typeof input !== "object" || Array.isArray(input))
    throw MemoryError.invalidInput("history", "expected an object (a version as history() returns it)");
  const v = input as Record<string, unknown>;
  const number = v.version;
  if (typeof number !== "number" || !Number.isInteger(number) || number < 1 || number > MAX_VERSION)
    throw MemoryError.invalidInput("version", `expected a whole number from 1 to ${MAX_VERSION}`);
  const at = check.dateOf(v.at, "at");
  if (at === undefined) throw MemoryError.invalidInput("at", "must be given");
  if (!MEMORY_CHANGES.includes(v.action as MemoryChange))
    throw MemoryError.invalidInput(
      "action",
      `expected one of ${MEMORY_CHANGES.join(", ")}, got ${String(v.action)}`,
    );
  const actor = check.requireText(v.actor, "actor", 256);
  const current = requireBoolean(v.current, "current");
  const deleted = requireBoolean(v.deleted, "deleted");
  if (current && deleted)
    throw MemoryError.invalidInput("deleted", "a tombstone cannot be the current version");
  const version: MemoryVersion = {
    version: number,
    at,
    action: v.action as MemoryChange,
    actor,
    current,
    deleted,
    id: check.requireText(v.id, "id", 256),
    key: check.requireText(v.key, "key", 4096),
    namespace: check.namespaceOf(check.requireText(v.namespace, "namespace", 256), "namespace", false),
    content: check.requireText(v.content, "content", settings.maxContentBytes),
    category: check.requireText(v.category, "category", 128),
  };
  const sessionId = check.optionalText(v.sessionId, "sessionId");
  if (sessionId !== undefined) version.sessionId = sessionId;
  const importance = check.importanceOf(v.importance, "importance");
  if (importance !== undefined) version.importance = importance;
  const supersededBy = check.optionalText(v.supersededBy, "supersededBy", 4096);
  if (supersededBy !== undefined) version.supersededBy = supersededBy;
  const metadata = metadataOf(v.metadata, "metadata");
  if (metadata !== undefined) version.metadata = metadata.metadata;
  const expiresAt = check.dateOf(v.expiresAt, "expiresAt");
  if (expiresAt !== undefined) version.expiresAt = expiresAt;
  const context = check.optionalText(v.context, "context", MAX_CONTEXT_BYTES);
  if (context !== undefined) version.context = context;
  const source = sourceOf(v.source, "source");
  if (source !== null) version.source = source;
  return version;
}

/** The problems of the versions as each key's history (errors at the index of the offending one). */
function keyProblems(versions: ReadonlyArray<{ index: number; version: MemoryVersion }>): VersionProblem[] {
  const problems: VersionProblem[] = [];
  const keys = new Map<string, { numbers: Set<number>; top: number; current?: number }>();
  for (const { version } of versions) {
    const id = `${version.namespace}\u0000${version.key}`;
    const seen = keys.get(id) ?? { numbers: new Set<number>(), top: 0 };
    seen.top = Math.max(seen.top, version.version);
    keys.set(id, seen);
  }
  for (const { index, version } of versions) {
    const seen = keys.get(`${version.namespace}\u0000${version.key}`)!;
    const name = `"${version.key}" in namespace "${version.namespace}"`;
    if (seen.numbers.has(version.version)) {
      problems.push({
        index,
        error: MemoryError.invalidInput("version", `version ${version.version} of ${name} is given twice`),
      });
      continue;
    }
    seen.numbers.add(version.version);
    if (!version.current) continue;
    if (seen.current !== undefined) {
      problems.push({
        index,
        error: MemoryError.invalidInput(
          "current",
          `versions ${seen.current} and ${version.version} of ${name} are both marked current`,
        ),
      });
    } else if (version.version < seen.top) {
      problems.push({
        index,
        error: MemoryError.invalidInput(
          "current",
          `version ${version.version} of ${name} is marked current, but version ${seen.top} is newer`,
        ),
      });
    }
    seen.current ??= version.version;
  }
  return problems;
}

function requireBoolean(value: unknown, field: string): boolean {
  if (typeof value !== "boolean") throw MemoryError.invalidInput(field, "expected true or false");
  return value;
}

function checkVersionText(
  version: MemoryVersion,
  checkText: (value: string | null | undefined, field: string) => void,
): void {
  checkText(version.actor, "actor");
  checkText(version.id, "id");
  checkText(version.key, "key");
  checkText(version.namespace, "namespace");
  checkText(version.content, "content");
  checkText(version.category, "category");
  checkText(version.sessionId, "sessionId");
  checkText(version.supersededBy, "supersededBy");
  checkText(version.context, "context");
  checkText(version.source?.path, "source.path");
}

/**
 * An INVALID_INPUT error of one version's field, named within the whole input (`history[3].at`;
 * `history[3]` when the version is no object).
 */
function prefixed(error: unknown, prefix: string): unknown {
  if (!isMemoryError(error, "INVALID_INPUT") || error.field === undefined) return error;
  // invalidInput() writes the message as `${field}: ${reason}`.
  const reason = error.message.slice(error.field.length + 2);
  const field = error.field === "history" ? prefix : `${prefix}.${error.field}`;
  return MemoryError.invalidInput(field, reason, error.cause);
}
