import type { SyncReport } from "../workspace-types.js";

/**
 * Runs one sync at a time. A request while one runs waits for one follow-up sync, shared by every
 * request made meanwhile (a full one if any asked for it), so each caller sees the files as they
 * were when it asked, and a burst of requests costs two syncs at most.
 */
export class SyncQueue {
  private running: Promise<SyncReport> | null = null;
  private queued: { promise: Promise<SyncReport>; full: boolean } | null = null;

  constructor(private readonly run: (full: boolean) => Promise<SyncReport>) {}

  request(full: boolean): Promise<SyncReport> {
    if (this.running === null) return this.start(full);
    if (this.queued !== null) {
      this.queued.full ||= full;
      return this.queued.promise;
    }
    const queued: { promise: Promise<SyncReport>; full: boolean } = { full, promise: this.running };
    queued.promise = this.running
      // A failed run was reported to its own caller; the next one starts regardless.
      .catch(() => undefined)
      .then(() => {
        this.queued = null;
        return this.start(queued.full);
      });
    this.queued = queued;
    return queued.promise;
  }

  /** Resolves once no sync runs or waits (their failures are their callers' to handle). */
  async idle(): Promise<void> {
    for (;;) {
      const pending = this.queued?.promise ?? this.running;
      if (pending === null) return;
      // A failed run was reported to its own caller; waiting is all this does.
      await pending.catch(() => undefined);
    }
  }

  private start(full: boolean): Promise<SyncReport> {
    const promise = this.run(full).finally(() => {
      if (this.running === promise) this.running = null;
    });
    this.running = promise;
    return promise;
  }
}
