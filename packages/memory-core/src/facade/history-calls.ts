// history(), restore(), purgeExpired() and replaceHistory() of the façade, and the history
// retention it runs after writes: composed into MemoryFacade, each call checking first that the
// memory is open.
import type {
  ActorOption,
  EmbedJob,
  HistoryOptions,
  HistoryRetention,
  MemoryBackend,
  MemoryEntry,
  MemoryVersion,
  RemovalChange,
  RemovalNote,
  RestoreOptions,
} from "@claw/memory-api";
import { MemoryError } from "@claw/memory-api";
import type { MemorySettings } from "../config/config-schema.js";
import * as check from "../validate-input.js";
import {
  actorOf,
  historyRequestOf,
  removalChangeOf,
  restoreWriteOf,
  visibleHistory,
} from "./history-requests.js";
import { checkWrite, storable } from "./storable-text.js";
import { versionsOf } from "./version-input.js";

export interface HistoryCallsDeps {
  backend: MemoryBackend;
  settings: MemorySettings;
  now: () => Date;
  /** Who changes are recorded as when a call names no actor. */
  actor: string;
  afterWrite: (changed: boolean) => Promise<void>;
  embedLater: (jobs: EmbedJob[]) => Promise<void>;
  warnOnce: (reason: string, data?: Record<string, unknown>) => void;
  /** Throws UNAVAILABLE once the memory is closed. */
  assertOpen: () => void;
}

export interface HistoryCalls {
  history(key: string, options: HistoryOptions): Promise<MemoryVersion[]>;
  restore(key: string, version: number, options: RestoreOptions): Promise<MemoryEntry>;
  purgeExpired(options: ActorOption): Promise<number>;
  /** Memory.replaceHistory(): UNAVAILABLE where the backend has no replaceHistory. */
  replaceHistory(history: Iterable<MemoryVersion>): Promise<number>;
  /** How a deletion is recorded: by `actor` (default the memory's), now. */
  removalNote(action: RemovalChange, actor: string | undefined): RemovalNote;
  /**
   * forget()'s and forgetMany()'s note, validated: `action` (default "forget"), and the options'
   * `actor` and `eraseHistory`.
   */
  forgetNote(action: unknown, options: { actor?: string; eraseHistory?: boolean }): RemovalNote;
  /**
   * Drops versions past the history retention, at most once a minute (history() never shows them
   * meanwhile). Its failure never fails the write that triggered it.
   */
  pruneWhenDue(): Promise<void>;
}

export function createHistoryCalls(deps: HistoryCallsDeps): HistoryCalls {
  const { backend, settings, now } = deps;
  let prunedAt = Number.NEGATIVE_INFINITY;
  const retention = (): HistoryRetention => ({
    maxVersions: settings.historyMaxVersions ?? 0,
    maxDays: settings.historyMaxDays ?? 0,
  });
  const removalNote = (action: RemovalChange, actor: string | undefined): RemovalNote => ({
    action,
    actor: actor ?? deps.actor,
    at: now().toISOString(),
  });

  return {
    removalNote,

    forgetNote(action, options) {
      const note = removalNote(removalChangeOf(action, "action"), actorOf(options.actor, "actor"));
      note.eraseHistory = check.optionalBoolean(options.eraseHistory, "eraseHistory") ?? false;
      return note;
    },

    async history(key, options) {
      deps.assertOpen();
      check.optionsOf(options, "options");
      const request = historyRequestOf(key, options);
      if (!storable(backend, request.namespace, request.key)) return [];
      const versions = await backend.history(request.namespace, request.key, request.limit);
      return visibleHistory(versions, retention(), now());
    },

    async restore(key, version, options) {
      deps.assertOpen();
      check.optionsOf(options, "options");
      const { namespace } = historyRequestOf(key, options);
      if (!Number.isInteger(version) || version < 1)
        throw MemoryError.invalidInput("version", `expected a whole number ≥ 1, got ${String(version)}`);
      const actor = actorOf(options.actor, "actor") ?? deps.actor;
      const versions = storable(backend, namespace, key)
        ? visibleHistory(await backend.history(namespace, key, 0), retention(), now())
        : [];
      const write = restoreWriteOf(versions, version, { key, namespace, actor, now: now() });
      checkWrite(backend, write, "");
      const [written] = await backend.write([write], [], removalNote("forget", actor));
      await deps.afterWrite(true);
      if (written === undefined) throw new MemoryError("STORAGE", "the store wrote nothing");
      await deps.embedLater(written.job === null ? [] : [written.job]);
      return written.entry;
    },

    async purgeExpired(options) {
      deps.assertOpen();
      check.optionsOf(options, "options");
      const removed = await backend.deleteExpired(removalNote("expire", actorOf(options.actor, "actor")));
      await deps.afterWrite(removed > 0);
      return removed;
    },

    async replaceHistory(history) {
      deps.assertOpen();
      if (backend.replaceHistory === undefined) {
        throw new MemoryError(
          "UNAVAILABLE",
          `the ${backend.name} store cannot replace its entries' history (a SQLite backup holds it already)`,
        );
      }
      const versions = versionsOf(history, settings, backend.checkText?.bind(backend));
      if (versions.length === 0) return 0;
      // The vectors an import just queued are written first: an engine may move the live rows it
      // updates (PostgreSQL), and a vector written to a row meanwhile would be lost.
      await backend.embedder?.flush();
      const written = await backend.replaceHistory(versions);
      await deps.afterWrite(true);
      return written;
    },

    async pruneWhenDue() {
      const rule = retention();
      if (rule.maxVersions === 0 && rule.maxDays === 0) return;
      const at = now();
      if (at.getTime() - prunedAt < 60_000) return;
      prunedAt = at.getTime();
      try {
        await backend.pruneHistory(rule, at.toISOString());
      } catch (error) {
        deps.warnOnce("pruning the history failed; it is tried again after a later write", {
          error: (error as Error).message,
        });
      }
    },
  };
}
