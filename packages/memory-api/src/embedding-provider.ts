/** Whether texts are searched for ("query") or stored ("document"); some models embed the two differently. */
export type EmbeddingPurpose = "query" | "document";

/** Options of one EmbeddingProvider.embed call. */
export interface EmbedOptions {
  purpose?: EmbeddingPurpose;
  signal?: AbortSignal;
}

/**
 * Turns texts into vectors. Each embeddings-* package's createEmbeddingProvider returns one; createMemory
 * resolves it from `[embedding]`.
 */
export interface EmbeddingProvider {
  readonly id: string;
  readonly model: string;
  readonly dimensions: number;
  readonly maxBatchSize?: number;
  readonly maxInputTokens?: number;
  /**
   * One vector of `dimensions` numbers per text, in order. Throws MemoryError (PROVIDER, PROVIDER_AUTH,
   * RATE_LIMITED, TIMEOUT, …).
   */
  embed(texts: readonly string[], options?: EmbedOptions): Promise<Float32Array[]>;
  /** The vendor's asynchronous batch API (cheaper, slower), for large backfills; absent when unsupported. */
  readonly batchJobs?: EmbeddingBatchJobs;
  /** Releases what the provider holds (an ONNX session, sockets); optional. */
  close?(): Promise<void>;
}

/** Options of one asynchronous batch embedding job. */
export interface EmbeddingBatchJobOptions {
  purpose?: EmbeddingPurpose;
  /** Stops polling (and cancels the vendor's job, best effort); the promise rejects with its reason. */
  signal?: AbortSignal;
  /**
   * Stops polling but leaves the vendor's job running (no cancel), so that it can be waited for
   * again with `resumeJobId`, e.g. after a restart; the promise rejects with its reason.
   */
  detachSignal?: AbortSignal;
  /** Time between status polls; default the provider's own (30 s). */
  pollIntervalMs?: number;
  /** Told each new status the vendor reports (e.g. "validating", "in_progress", "JOB_STATE_RUNNING"). */
  onStatus?: (status: string) => void;
  /** Told the vendor's id of the job once it is submitted (the value `resumeJobId` takes). */
  onSubmitted?: (jobId: string) => void;
  /**
   * Waits for this job, submitted earlier for the same `texts` in the same order, instead of
   * submitting a new one. Rejects with NOT_FOUND when the vendor no longer knows the job, and as any
   * job does when it failed, expired or was cancelled.
   */
  resumeJobId?: string;
}

/** A vendor batch API: one call submits one job, waits for it and returns its vectors. */
export interface EmbeddingBatchJobs {
  /**
   * Submits one batch job for `texts`, polls until it ends and returns one vector per text, in input
   * order. Rejects with a MemoryError (PROVIDER, PROVIDER_AUTH, RATE_LIMITED, TIMEOUT) when the job
   * fails, expires or is cancelled, or when any of its requests failed.
   */
  embedInBatchJob(texts: readonly string[], options?: EmbeddingBatchJobOptions): Promise<Float32Array[]>;
  /**
   * Cancels a job submitted earlier (an id `onSubmitted` gave) and drops its files, best effort: a
   * finished or unknown job is left as it is. Never rejects.
   */
  cancelJob?(jobId: string): Promise<void>;
  /** Most texts one job takes. */
  readonly maxTextsPerJob?: number;
  /** Most characters (summed over the texts) one job takes: the vendor caps its input size. */
  readonly maxCharsPerJob?: number;
}

/** For the curator; OpenAI-compatible and Gemini implementations live in their provider packages. */
export interface TextGenerator {
  /** The model's answer to `prompt` (JSON text when `json` is set). */
  generate(request: {
    system?: string;
    prompt: string;
    json?: boolean;
    signal?: AbortSignal;
  }): Promise<string>;
}
