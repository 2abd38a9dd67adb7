// Validation of the history calls (history, restore, the `actor` and `action` of a change), what
// history() shows under the retention, and the write a restore makes.
import type {
  EntryWrite,
  HistoryOptions,
  HistoryRetention,
  MemoryVersion,
  RemovalChange,
} from "@claw/memory-api";
import { MemoryError } from "@claw/memory-api";
import * as check from "../validate-input.js";

const REMOVALS: readonly RemovalChange[] = ["forget", "merge", "prune", "expire"];
const DAY_MS = 86_400_000;

/** A change's `actor`: up to 256 bytes of text; undefined when not given. */
export function actorOf(value: unknown, field: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  return check.requireText(value, field, 256);
}

/** forgetMany's `action`: what the deletion is recorded as (default "forget"). */
export function removalChangeOf(value: unknown, field: string): RemovalChange {
  if (value === undefined || value === null) return "forget";
  if (!REMOVALS.includes(value as RemovalChange))
    throw MemoryError.invalidInput(field, `expected one of ${REMOVALS.join(", ")}, got ${String(value)}`);
  return value as RemovalChange;
}

/** history()'s key, namespace and limit (0 = every version). */
export function historyRequestOf(
  key: string,
  options: HistoryOptions,
): { namespace: string; key: string; limit: number } {
  return {
    namespace: check.namespaceOf(options.namespace, "namespace", false),
    key: check.requireText(key, "key", 4096),
    limit: options.limit === undefined ? 0 : check.limitOf(options.limit, "limit", 1000, 100_000),
  };
}

/**
 * The versions history() shows: the current one always, the others while the retention keeps
 * them (at most `maxVersions` in all, none older than `maxDays`), newest first. The store drops
 * the same ones later (pruneHistory), so what is shown never depends on when that ran.
 */
export function visibleHistory(
  versions: readonly MemoryVersion[],
  retention: HistoryRetention,
  now: Date,
): MemoryVersion[] {
  const oldest =
    retention.maxDays > 0 ? now.getTime() - retention.maxDays * DAY_MS : Number.NEGATIVE_INFINITY;
  const top = versions[0]?.version ?? 0;
  return versions.filter(
    (v) =>
      v.current ||
      ((retention.maxVersions === 0 || v.version > top - retention.maxVersions) &&
        Date.parse(v.at) >= oldest),
  );
}

/** The write that makes `version` current again (as a new "restore" version). */
export function restoreWriteOf(
  versions: readonly MemoryVersion[],
  version: number,
  context: { key: string; namespace: string; actor: string; now: Date },
): EntryWrite {
  const chosen = versions.find((v) => v.version === version);
  if (chosen === undefined) {
    throw new MemoryError(
      "NOT_FOUND",
      `no version ${version} of "${context.key}" is kept in namespace "${context.namespace}"`,
    );
  }
  if (chosen.deleted)
    throw MemoryError.invalidInput(
      "version",
      `version ${version} records a deletion (${chosen.action}); restore the version before it`,
    );
  const nowIso = context.now.toISOString();
  const live = versions.some((v) => v.current);
  return {
    key: chosen.key,
    content: chosen.content,
    category: chosen.category,
    namespace: chosen.namespace,
    sessionId: chosen.sessionId ?? null,
    importance: chosen.importance ?? 0.5,
    supersededBy: chosen.supersededBy ?? null,
    id: chosen.id,
    // The id is the entry's own; if another entry took it meanwhile, the store gives a fresh one.
    idFromCaller: true,
    createdAt: nowIso,
    updatedAt: nowIso,
    embedding: null,
    source: chosen.source ?? null,
    context: chosen.context ?? null,
    metadata: chosen.metadata === undefined ? null : JSON.stringify(chosen.metadata),
    // An expiry that has passed is not restored: the entry would vanish again at once.
    expiresAt:
      chosen.expiresAt !== undefined && Date.parse(chosen.expiresAt) > context.now.getTime()
        ? chosen.expiresAt
        : null,
    change: "restore",
    actor: context.actor,
    // A live entry keeps its creation time; one restored after a deletion is created again now.
    keepCreatedAt: live,
  };
}
