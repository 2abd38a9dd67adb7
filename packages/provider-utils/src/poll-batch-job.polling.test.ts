import { isMemoryError, MemoryError } from "@claw/memory-api";
import { describe, expect, it } from "vitest";
import { MAX_POLL_FAILURES, runBatchJob } from "./poll-batch-job.js";
import { retryableFailure, scriptedVendor } from "./test-support/scripted-vendor.js";

describe("runBatchJob: polling a submitted job", () => {
  it("submits, reports the id, reports each new status once, and returns the results in order", async () => {
    const vendor = scriptedVendor({ created: "queued", polls: ["running", "running", "done"] });
    const events: string[] = [];

    const results = await runBatchJob(vendor, ["a", "b"], {
      pollIntervalMs: 1,
      onSubmitted: (id) => events.push(`submitted ${id}`),
      onStatus: (status) => events.push(status),
    });

    expect(results).toEqual(["job-1:a", "job-1:b"]);
    expect(events).toEqual(["submitted job-1", "queued", "running", "done"]);
    expect(vendor.calls).toEqual(["submit", "get job-1", "get job-1", "get job-1", "collect job-1"]);
  });

  it("hands a failed job to collect, whose error it rejects with, without cancelling", async () => {
    const vendor = scriptedVendor({ polls: ["failed"] });

    const error = await runBatchJob(vendor, ["a"], { pollIntervalMs: 1 }).catch((e: unknown) => e);

    expect(error).toMatchObject({ code: "PROVIDER", message: "job-1 failed" });
    expect(vendor.calls).toEqual(["submit", "get job-1", "collect job-1"]);
  });

  it("keeps polling through retryable poll failures", async () => {
    const vendor = scriptedVendor({ polls: [retryableFailure(), retryableFailure(), "done"] });

    expect(await runBatchJob(vendor, ["a"], { pollIntervalMs: 1 })).toEqual(["job-1:a"]);
    expect(vendor.calls.filter((call) => call === "get job-1")).toHaveLength(3);
  });

  it(`gives up after ${MAX_POLL_FAILURES} failed polls in a row and cancels the job`, async () => {
    const vendor = scriptedVendor({ polls: [retryableFailure()] });

    const error = await runBatchJob(vendor, ["a"], { pollIntervalMs: 1 }).catch((e: unknown) => e);

    expect(error).toMatchObject({ code: "PROVIDER", message: "HTTP 503" });
    expect(vendor.calls.filter((call) => call === "get job-1")).toHaveLength(MAX_POLL_FAILURES);
    expect(vendor.calls.at(-1)).toBe("cancel job-1 (seen queued)");
  });

  it("gives up at once on a poll failure that is not retryable, and cancels the job", async () => {
    const denied = new MemoryError("PROVIDER_AUTH", "HTTP 401", { retryable: false });
    const vendor = scriptedVendor({ polls: ["running", denied] });

    await expect(runBatchJob(vendor, ["a"], { pollIntervalMs: 1 })).rejects.toBe(denied);
    expect(vendor.calls).toEqual(["submit", "get job-1", "get job-1", "cancel job-1 (seen running)"]);
  });

  it("does not cancel a job the vendor no longer knows (NOT_FOUND)", async () => {
    const gone = new MemoryError("NOT_FOUND", "no job-1", { retryable: false });
    const vendor = scriptedVendor({ polls: [gone] });

    await expect(runBatchJob(vendor, ["a"], { pollIntervalMs: 1 })).rejects.toBe(gone);
    expect(vendor.calls).toEqual(["submit", "get job-1"]);
  });

  it("cancels the job when onSubmitted throws (it could never be resumed) and rejects with that error", async () => {
    const vendor = scriptedVendor();
    const failure = new Error("cannot record the job");

    const job = runBatchJob(vendor, ["a"], {
      onSubmitted: () => {
        throw failure;
      },
    });

    await expect(job).rejects.toBe(failure);
    expect(vendor.calls).toEqual(["submit", "cancel job-1 (seen queued)"]);
  });
});

describe("runBatchJob: options checked before anything is sent", () => {
  it("returns [] for no texts", async () => {
    const vendor = scriptedVendor();
    expect(await runBatchJob(vendor, [])).toEqual([]);
    expect(vendor.calls).toEqual([]);
  });

  it.each([
    ["texts", ["a", "b", "c", "d"], {}],
    ["pollIntervalMs", ["a"], { pollIntervalMs: 0 }],
    ["pollIntervalMs", ["a"], { pollIntervalMs: Number.NaN }],
    ["resumeJobId", ["a"], { resumeJobId: "batches/1" }],
    ["resumeJobId", ["a"], { resumeJobId: "" }],
  ] as const)("rejects a bad %s as INVALID_INPUT", async (field, texts, options) => {
    const vendor = scriptedVendor();

    const error = await runBatchJob(vendor, texts, options).catch((e: unknown) => e);

    expect(isMemoryError(error, "INVALID_INPUT")).toBe(true);
    expect((error as MemoryError).field).toBe(field);
    expect(vendor.calls).toEqual([]);
  });

  it("names the job id's expected form", async () => {
    const error = await runBatchJob(scriptedVendor(), ["a"], { resumeJobId: "x" }).catch((e: unknown) => e);
    expect((error as Error).message).toBe('resumeJobId: must be a job id (job-{n}), got "x"');
  });
});
