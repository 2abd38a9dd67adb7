// An in-memory BatchJobVendor for runBatchJob's tests: polls answer a scripted list of statuses (or
// errors), and every request is written to `calls`.
import { MemoryError } from "@claw/memory-api";
import type { BatchJobSignals, BatchJobVendor } from "../poll-batch-job.js";

export interface FakeJob {
  id: string;
  status: string;
}

export interface VendorScript {
  /** The status the created job has. Default "queued". */
  created?: string;
  /** What successive polls answer (a status, or an error to reject with); the last one repeats. */
  polls?: Array<string | Error>;
  /** Called at the start of each poll (1-based), e.g. to fire a signal while it is in flight. */
  onPoll?: (poll: number) => void;
  /** Resolves the create; default at once. */
  createGate?: Promise<void>;
  /** Rejects the create with this error. */
  createError?: Error;
  /** A `resume` that differs from getJob (like OpenAI's, which checks the job is ours). */
  resume?: (jobId: string) => Promise<FakeJob>;
}

export interface ScriptedVendor extends BatchJobVendor<FakeJob, string> {
  /** "submit", "get job-1", "cancel job-1 (seen done)", "collect job-1", "cancelJob job-9". */
  readonly calls: string[];
  /** The signals the last submit was given. */
  readonly submitSignals: BatchJobSignals[];
}

export function scriptedVendor(script: VendorScript = {}): ScriptedVendor {
  const calls: string[] = [];
  const submitSignals: BatchJobSignals[] = [];
  let polls = 0;
  return {
    calls,
    submitSignals,
    maxTextsPerJob: 3,
    maxCharsPerJob: 100,
    jobIdPattern: /^job-\d+$/,
    jobIdDescription: "a job id (job-{n})",
    async submit(_texts, _options, signals) {
      calls.push("submit");
      submitSignals.push(signals);
      await script.createGate;
      if (script.createError !== undefined) throw script.createError;
      return { id: "job-1", status: script.created ?? "queued" };
    },
    jobId: (job) => job.id,
    async getJob(jobId) {
      calls.push(`get ${jobId}`);
      polls++;
      script.onPoll?.(polls);
      const answers = script.polls ?? ["done"];
      const answer = answers[Math.min(polls, answers.length) - 1] ?? "done";
      if (answer instanceof Error) throw answer;
      return { id: jobId, status: answer };
    },
    ...(script.resume === undefined ? {} : { resume: script.resume }),
    status: (job) => job.status,
    isDone: (job) => job.status === "done" || job.status === "failed",
    collect(job, texts) {
      calls.push(`collect ${job.id}`);
      if (job.status === "failed")
        throw new MemoryError("PROVIDER", `${job.id} failed`, { retryable: false });
      return texts.map((text) => `${job.id}:${text}`);
    },
    async cancel(jobId, job) {
      calls.push(`cancel ${jobId} (${job === undefined ? "never seen" : `seen ${job.status}`})`);
    },
    async cancelJob(jobId) {
      calls.push(`cancelJob ${jobId}`);
    },
  };
}

/** A poll failure that may be retried (a 503, say). */
export function retryableFailure(): MemoryError {
  return new MemoryError("PROVIDER", "HTTP 503", { retryable: true });
}
