// watch(): file events, debounced into syncs; a burst of edits becomes one sync.
import { MemoryError } from "@claw/memory-api";
import { ROOT_DIRS, ROOT_FILES } from "../files/workspace-paths.js";
import type { ResolvedOptions } from "../workspace-options.js";
import type { SyncReport, Watcher, WatchOptions } from "../workspace-types.js";
import { DirectoryWatch } from "./directory-watch.js";

/** The polling interval of `watch({ poll: true })`. */
export const DEFAULT_POLL_MS = 5_000;
const MAX_WAIT_FACTOR = 10;

/**
 * Starts watching. Every event (re)starts a quiet-time timer of `debounceMs`; when it runs out,
 * or `maxWaitMs` after the first event of a burst, one sync runs. Events during a sync schedule
 * the next one. When the file system cannot be watched, or with `poll`, a sync runs every
 * `poll` ms instead (cheap when nothing changed: sizes and mtimes only).
 */
export function startWatcher(
  options: ResolvedOptions,
  requestSync: () => Promise<SyncReport>,
  watchOptions: WatchOptions = {},
): Watcher {
  const debounceMs = milliseconds(watchOptions.debounceMs, "debounceMs") ?? options.debounceMs;
  const maxWaitMs = milliseconds(watchOptions.maxWaitMs, "maxWaitMs") ?? debounceMs * MAX_WAIT_FACTOR;
  const logger = options.logger;
  let closed = false;
  let timer: NodeJS.Timeout | null = null;
  let poller: NodeJS.Timeout | null = null;
  let burstStart: number | null = null;
  let inFlight: Promise<void> = Promise.resolve();
  let syncs = 0;
  let waiters: Array<{ resolve: (r: SyncReport) => void; reject: (e: unknown) => void }> = [];
  let directories: DirectoryWatch | null = null;
  const poll = pollInterval(watchOptions.poll);

  const fire = () => {
    timer = null;
    burstStart = null;
    if (closed) return;
    inFlight = requestSync().then(
      (report) => {
        syncs++;
        const waiting = waiters;
        waiters = [];
        for (const waiter of waiting) waiter.resolve(report);
        directories?.refresh();
        try {
          watchOptions.onSync?.(report);
        } catch (error) {
          logger.warn("workspace watch: the onSync callback threw", { error: (error as Error).message });
        }
      },
      (error: unknown) => {
        logger.warn("workspace watch: sync failed", { error: (error as Error).message });
        const waiting = waiters;
        waiters = [];
        for (const waiter of waiting) waiter.reject(error);
        watchOptions.onError?.(error);
      },
    );
  };

  const changed = () => {
    if (closed) return;
    const now = Date.now();
    burstStart ??= now;
    if (timer !== null) clearTimeout(timer);
    timer = setTimeout(fire, Math.max(0, Math.min(debounceMs, burstStart + maxWaitMs - now)));
  };

  const startPolling = (everyMs: number) => {
    if (poller !== null || closed) return;
    poller = setInterval(() => {
      if (timer === null) fire();
    }, everyMs);
  };

  if (poll !== null) {
    startPolling(poll);
  } else {
    const extraTops = options.extraPaths.map((p) => p.split("/")[0] as string);
    const trees = [...ROOT_DIRS, ...extraTops.filter((p) => !p.toLowerCase().endsWith(".md"))];
    directories = new DirectoryWatch({
      workspaceDir: options.workspaceDir,
      rootNames: new Set([...ROOT_FILES, ...ROOT_DIRS, ...extraTops]),
      trees,
      flat: options.sessions === null ? [] : [options.sessions.dir],
      onChange: changed,
      onFailure: (error) => {
        logger.warn("workspace watch: file events unavailable; polling instead", { error: error.message });
        startPolling(DEFAULT_POLL_MS);
      },
    });
  }

  return {
    get syncs() {
      return syncs;
    },
    nextSync() {
      if (closed) return Promise.reject(new MemoryError("UNAVAILABLE", "this watcher is closed"));
      return new Promise<SyncReport>((resolve, reject) => waiters.push({ resolve, reject }));
    },
    async close() {
      if (closed) return;
      closed = true;
      if (timer !== null) clearTimeout(timer);
      if (poller !== null) clearInterval(poller);
      directories?.close();
      await inFlight;
      const waiting = waiters;
      waiters = [];
      for (const waiter of waiting) waiter.reject(new MemoryError("UNAVAILABLE", "this watcher is closed"));
    },
  };
}

function pollInterval(value: WatchOptions["poll"]): number | null {
  if (value === undefined || value === false) return null;
  if (value === true) return DEFAULT_POLL_MS;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1)
    throw MemoryError.invalidInput(
      "poll",
      `expected true, false or a positive number of ms, got ${String(value)}`,
    );
  return value;
}

function milliseconds(value: unknown, field: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0)
    throw MemoryError.invalidInput(field, `must be a non-negative integer of ms, got ${String(value)}`);
  return value;
}
