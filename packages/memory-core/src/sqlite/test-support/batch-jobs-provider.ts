// An in-process EmbeddingProvider with `batchJobs`: deterministic hashing vectors, every job and
// normal request recorded, jobs failed or held on demand, submitted jobs kept by id for resuming.
import type { EmbeddingBatchJobOptions, EmbeddingProvider, EmbedOptions } from "@claw/memory-api";
import { MemoryError } from "@claw/memory-api";
import { createHashingEmbeddingProvider } from "../../embedding/hashing-embedding-provider.js";

export interface RecordedJob {
  texts: string[];
  options: EmbeddingBatchJobOptions;
}

export interface HeldJob {
  /** Resolves with the job's texts once it was submitted. */
  started: Promise<string[]>;
  /** Lets the job finish (with its vectors, or failing with `error`). */
  release(error?: Error): void;
}

export interface BatchJobsDouble {
  provider: EmbeddingProvider;
  /** Every job submitted, in order. */
  jobs: RecordedJob[];
  /** Normal `embed()` calls with document purpose, and how many texts they carried. */
  documentRequests: { calls: number; texts: number };
  /** Jobs the "vendor" holds, by id (`job-1`, …): their texts. `forget` drops one (it expired). */
  submitted: Map<string, string[]>;
  /** Ids of jobs cancelled through `signal` or `cancelJob` (a `detachSignal` cancels nothing). */
  cancelled: string[];
  /** The next `times` jobs reject with `error`. */
  failNextJobs(error: Error, times?: number): void;
  /** The next job waits until released (or until its signal aborts). */
  holdNextJob(): HeldJob;
  /** The next job answers with these vectors instead of the right ones. */
  answerNextJobWith(vectors: (texts: string[]) => Float32Array[]): void;
}

export interface BatchJobsDoubleOptions {
  dimensions?: number;
  maxTextsPerJob?: number;
  maxCharsPerJob?: number;
}

type Plan =
  | { kind: "fail"; error: Error }
  | { kind: "hold"; gate: Promise<Error | undefined>; onStart: (texts: string[]) => void }
  | { kind: "answer"; vectors: (texts: string[]) => Float32Array[] };

export function batchJobsProvider(options: BatchJobsDoubleOptions = {}): BatchJobsDouble {
  const inner = createHashingEmbeddingProvider({ dimensions: options.dimensions ?? 32 });
  const jobs: RecordedJob[] = [];
  const documentRequests = { calls: 0, texts: 0 };
  const plans: Plan[] = [];
  const submitted = new Map<string, string[]>();
  let jobCount = 0;
  const cancelled: string[] = [];

  const provider: EmbeddingProvider = {
    id: "batch-double",
    model: "hashing-v1",
    dimensions: inner.dimensions,
    maxBatchSize: 16,
    async embed(texts: readonly string[], embedOptions?: EmbedOptions) {
      if (embedOptions?.purpose !== "query") {
        documentRequests.calls++;
        documentRequests.texts += texts.length;
      }
      return inner.embed(texts, embedOptions);
    },
    batchJobs: {
      ...(options.maxTextsPerJob === undefined ? {} : { maxTextsPerJob: options.maxTextsPerJob }),
      ...(options.maxCharsPerJob === undefined ? {} : { maxCharsPerJob: options.maxCharsPerJob }),
      async cancelJob(jobId) {
        if (submitted.has(jobId)) cancelled.push(jobId);
      },
      async embedInBatchJob(texts, jobOptions = {}) {
        jobs.push({ texts: [...texts], options: jobOptions });
        let id = jobOptions.resumeJobId;
        if (id !== undefined) {
          const known = submitted.get(id);
          if (known === undefined) throw new MemoryError("NOT_FOUND", `no batch job ${id}`);
          if (known.join("\u0000") !== texts.join("\u0000")) throw new Error(`job ${id} was for other texts`);
        } else {
          id = `job-${++jobCount}`;
          submitted.set(id, [...texts]);
          jobOptions.onSubmitted?.(id);
        }
        const plan = plans.shift();
        if (plan?.kind === "fail") throw plan.error;
        if (plan?.kind === "answer") return plan.vectors([...texts]);
        if (plan?.kind === "hold") {
          plan.onStart([...texts]);
          const { signal, detachSignal } = jobOptions;
          const jobId = id;
          const aborted = new Promise<never>((_, reject) => {
            const cancel = () => {
              cancelled.push(jobId);
              reject(signal?.reason);
            };
            if (signal?.aborted) cancel();
            signal?.addEventListener("abort", cancel, { once: true });
            if (detachSignal?.aborted) reject(detachSignal.reason);
            detachSignal?.addEventListener("abort", () => reject(detachSignal.reason), { once: true });
          });
          const error = await Promise.race([plan.gate, aborted]);
          if (error !== undefined) throw error;
        }
        return inner.embed(texts, { purpose: jobOptions.purpose ?? "document" });
      },
    },
  };

  return {
    provider,
    jobs,
    documentRequests,
    submitted,
    cancelled,
    failNextJobs(error, times = 1) {
      for (let i = 0; i < times; i++) plans.push({ kind: "fail", error });
    },
    holdNextJob() {
      let release: (error?: Error) => void = () => {};
      let onStart: (texts: string[]) => void = () => {};
      const gate = new Promise<Error | undefined>((resolve) => {
        release = (error) => resolve(error);
      });
      const started = new Promise<string[]>((resolve) => {
        onStart = resolve;
      });
      plans.push({ kind: "hold", gate, onStart });
      return { started, release };
    },
    answerNextJobWith(vectors) {
      plans.push({ kind: "answer", vectors });
    },
  };
}
