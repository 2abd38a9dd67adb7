import { MemoryError } from "@claw/memory-api";
import { describe, expect, it } from "vitest";
import { MAX_POLL_FAILURES, runBatchJob } from "./poll-batch-job.js";
import { retryableFailure, scriptedVendor } from "./test-support/scripted-vendor.js";

describe("runBatchJob: resumeJobId", () => {
  it("looks at the job at once, without submitting or reporting an id, and waits for it", async () => {
    const vendor = scriptedVendor({ polls: ["running", "done"] });
    const statuses: string[] = [];
    const submitted: string[] = [];

    const results = await runBatchJob(vendor, ["a", "b"], {
      pollIntervalMs: 1,
      resumeJobId: "job-7",
      onSubmitted: (id) => submitted.push(id),
      onStatus: (status) => statuses.push(status),
    });

    expect(results).toEqual(["job-7:a", "job-7:b"]);
    expect(statuses).toEqual(["running", "done"]);
    expect(submitted).toEqual([]);
    expect(vendor.calls).toEqual(["get job-7", "get job-7", "collect job-7"]);
  });

  it("collects a job that already ended without waiting a poll interval", async () => {
    const vendor = scriptedVendor({ polls: ["done"] });

    // A day-long interval: only a first look without a wait can finish this.
    const results = await runBatchJob(vendor, ["a"], { resumeJobId: "job-7", pollIntervalMs: 86_400_000 });

    expect(results).toEqual(["job-7:a"]);
  });

  it("uses the vendor's resume for the first look, and getJob after it", async () => {
    const vendor = scriptedVendor({
      polls: ["done"],
      resume: async (jobId) => ({ id: jobId, status: "running" }),
    });

    expect(await runBatchJob(vendor, ["a"], { resumeJobId: "job-7", pollIntervalMs: 1 })).toEqual([
      "job-7:a",
    ]);
    expect(vendor.calls).toEqual(["get job-7", "collect job-7"]);
  });

  it("rejects an unknown job (NOT_FOUND) or one that is not ours (INVALID_INPUT) without cancelling", async () => {
    for (const error of [
      new MemoryError("NOT_FOUND", "no job-7", { retryable: false }),
      MemoryError.invalidInput("resumeJobId", "job-7 is not an embeddings job"),
    ]) {
      const vendor = scriptedVendor({ resume: () => Promise.reject(error) });

      await expect(runBatchJob(vendor, ["a"], { resumeJobId: "job-7", pollIntervalMs: 1 })).rejects.toBe(
        error,
      );
      expect(vendor.calls).toEqual([]);
    }
  });

  it("retries a first look that failed retryably, and never cancels a job it has not seen", async () => {
    const vendor = scriptedVendor({ polls: [retryableFailure()] });

    const error = await runBatchJob(vendor, ["a"], { resumeJobId: "job-7", pollIntervalMs: 1 }).catch(
      (e: unknown) => e,
    );

    expect(error).toMatchObject({ code: "PROVIDER", retryable: true });
    expect(vendor.calls).toEqual(Array(MAX_POLL_FAILURES).fill("get job-7"));
  });

  it("`signal` aborting the first look cancels the job, which it has not seen", async () => {
    const controller = new AbortController();
    const reason = new Error("stop");
    const vendor = scriptedVendor({
      polls: [new Error("request aborted")],
      onPoll: () => controller.abort(reason),
    });

    const job = runBatchJob(vendor, ["a"], { resumeJobId: "job-7", signal: controller.signal });

    await expect(job).rejects.toBe(reason);
    expect(vendor.calls).toEqual(["get job-7", "cancel job-7 (never seen)"]);
  });

  it("detaching from a resumed job leaves it running again", async () => {
    const detach = new AbortController();
    const reason = new Error("detached again");
    const vendor = scriptedVendor({ polls: ["running"] });

    const job = runBatchJob(vendor, ["a"], {
      resumeJobId: "job-7",
      pollIntervalMs: 1,
      detachSignal: detach.signal,
      onStatus: () => detach.abort(reason),
    });

    await expect(job).rejects.toBe(reason);
    expect(vendor.calls).toEqual(["get job-7"]);
  });
});
