/** What the deferred queue needs from the embedding code that owns it. */
export interface DeferredQueueOptions<J> {
  /** Batches run at once (at least 1). */
  concurrency: number;
  /** The next batch to run, taken from the queued jobs (oldest first). */
  nextBatch(queued: readonly J[]): J[];
  run(batch: J[]): Promise<unknown>;
  /** A batch failed; `stopped` is true when the queue was stopped meanwhile. */
  onError(error: unknown, batch: readonly J[], stopped: boolean): void;
}

/**
 * Deferred embedding jobs keyed by row: a newer job for a row replaces the queued one; work starts
 * on the next turn of the event loop, so store() calls made in one turn join one batch; while a
 * batch runs, the jobs that follow gather into the next one until they fill more than a batch; at
 * most `concurrency` batches run at once. Shared by the SQLite pipeline and the PostgreSQL worker.
 */
export class DeferredQueue<J extends { rid: number }> {
  private readonly queue = new Map<number, J>();
  private inFlight = 0;
  private runningJobs = 0;
  private pumpScheduled = false;
  private idleWaiters: Array<() => void> = [];
  private stopped = false;

  constructor(private readonly options: DeferredQueueOptions<J>) {}

  /** Jobs queued or running. */
  get pending(): number {
    return this.queue.size + this.runningJobs;
  }

  enqueue(jobs: readonly J[]): void {
    if (this.stopped) return;
    for (const job of jobs) {
      // A newer write of the same row replaces the older job; the content guard would drop it anyway.
      this.queue.delete(job.rid);
      this.queue.set(job.rid, job);
    }
    if (this.pumpScheduled) return;
    this.pumpScheduled = true;
    setImmediate(() => {
      this.pumpScheduled = false;
      this.pump();
    });
  }

  /** Resolves when no job is queued or running. */
  flush(): Promise<void> {
    if (this.queue.size === 0 && this.inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Waits up to `timeoutMs` for every job; true when they all finished. */
  async drain(timeoutMs: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const finished = await Promise.race([
      this.flush().then(() => true),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), timeoutMs);
      }),
    ]);
    clearTimeout(timer);
    return finished;
  }

  /** Takes no more jobs and drops the queued ones (backfill embeds them later). */
  stop(): void {
    this.stopped = true;
    this.queue.clear();
    if (this.inFlight === 0) this.wakeIdleWaiters();
  }

  private pump(): void {
    while (!this.stopped && this.queue.size > 0 && this.inFlight < Math.max(1, this.options.concurrency)) {
      const batch = this.options.nextBatch([...this.queue.values()]);
      if (batch.length === 0) return;
      // With a batch running, another starts only for more than one batch's worth of jobs: jobs
      // that come one by one (store() after store()) wait for it and then go together, one provider
      // request and one write for many, instead of one each competing with the writes that queue them.
      if (this.inFlight > 0 && batch.length === this.queue.size) return;
      for (const job of batch) this.queue.delete(job.rid);
      this.inFlight++;
      this.runningJobs += batch.length;
      this.options
        .run(batch)
        .catch((error: unknown) => this.options.onError(error, batch, this.stopped))
        .finally(() => {
          this.runningJobs -= batch.length;
          this.inFlight--;
          this.pump();
          if (this.queue.size === 0 && this.inFlight === 0) this.wakeIdleWaiters();
        });
    }
  }

  private wakeIdleWaiters(): void {
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }
}
