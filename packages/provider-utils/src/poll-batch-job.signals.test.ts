import { describe, expect, it } from "vitest";
import { runBatchJob } from "./poll-batch-job.js";
import { scriptedVendor } from "./test-support/scripted-vendor.js";

describe("runBatchJob: signal", () => {
  it("stops polling, cancels the job and rejects with the signal's reason", async () => {
    const controller = new AbortController();
    const reason = new Error("stop now");
    const vendor = scriptedVendor({ polls: ["running"] });

    const job = runBatchJob(vendor, ["a"], {
      pollIntervalMs: 1,
      signal: controller.signal,
      onStatus: (status) => {
        if (status === "running") controller.abort(reason);
      },
    });

    await expect(job).rejects.toBe(reason);
    expect(vendor.calls).toEqual(["submit", "get job-1", "cancel job-1 (seen running)"]);
  });

  it("rejects with its reason when it fires during a poll, and cancels", async () => {
    const controller = new AbortController();
    const reason = new Error("stop during a poll");
    // The vendor's request fails as an aborted request does (the SDK's own error, not the reason).
    const vendor = scriptedVendor({
      polls: ["running", new Error("request aborted")],
      onPoll: (poll) => {
        if (poll === 2) controller.abort(reason);
      },
    });

    await expect(runBatchJob(vendor, ["a"], { pollIntervalMs: 1, signal: controller.signal })).rejects.toBe(
      reason,
    );
    expect(vendor.calls.at(-1)).toBe("cancel job-1 (seen running)");
  });

  it("rejects with its reason when the create fails because it fired", async () => {
    const controller = new AbortController();
    const reason = new Error("stop during the create");
    let release = () => {};
    const vendor = scriptedVendor({
      createGate: new Promise<void>((resolve) => {
        release = resolve;
      }),
      createError: new Error("request aborted"),
    });

    const job = runBatchJob(vendor, ["a"], { signal: controller.signal });
    controller.abort(reason);
    release();

    await expect(job).rejects.toBe(reason);
    expect(vendor.calls).toEqual(["submit"]);
  });

  it("already aborted: rejects with its reason before anything is sent", async () => {
    const reason = new Error("aborted already");
    const vendor = scriptedVendor();

    await expect(runBatchJob(vendor, ["a"], { signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
    expect(vendor.calls).toEqual([]);
  });
});

describe("runBatchJob: detachSignal", () => {
  it("stops polling with its reason and leaves the job running (no cancel)", async () => {
    const detach = new AbortController();
    const reason = new Error("shutting down");
    const vendor = scriptedVendor({ polls: ["running"] });
    const submitted: string[] = [];

    const job = runBatchJob(vendor, ["a"], {
      pollIntervalMs: 1,
      detachSignal: detach.signal,
      onSubmitted: (id) => submitted.push(id),
      onStatus: (status) => {
        if (status === "running") detach.abort(reason);
      },
    });

    await expect(job).rejects.toBe(reason);
    expect(submitted).toEqual(["job-1"]);
    expect(vendor.calls).toEqual(["submit", "get job-1"]);
  });

  it("does not cut the create short: the job is created, its id reported, then detached without a poll", async () => {
    const detach = new AbortController();
    const reason = new Error("detached during the create");
    let release = () => {};
    const vendor = scriptedVendor({
      createGate: new Promise<void>((resolve) => {
        release = resolve;
      }),
    });
    const submitted: string[] = [];

    const job = runBatchJob(vendor, ["a"], {
      pollIntervalMs: 1,
      detachSignal: detach.signal,
      onSubmitted: (id) => submitted.push(id),
    });
    detach.abort(reason);
    release();

    await expect(job).rejects.toBe(reason);
    expect(submitted).toEqual(["job-1"]);
    expect(vendor.calls).toEqual(["submit"]);
    // The create got only the caller's signal; `stop` (for uploads and polls) is the detach signal.
    expect(vendor.submitSignals[0]?.signal).toBeUndefined();
    expect(vendor.submitSignals[0]?.stop).toBe(detach.signal);
  });

  it("with `signal` aborted as well, cancels: the caller's abort wins", async () => {
    const controller = new AbortController();
    const detach = new AbortController();
    const reason = new Error("abort");
    const vendor = scriptedVendor({ polls: ["running"] });

    const job = runBatchJob(vendor, ["a"], {
      pollIntervalMs: 1,
      signal: controller.signal,
      detachSignal: detach.signal,
      onStatus: (status) => {
        if (status === "running") {
          detach.abort(new Error("detach"));
          controller.abort(reason);
        }
      },
    });

    await expect(job).rejects.toBe(reason);
    expect(vendor.calls.at(-1)).toBe("cancel job-1 (seen running)");
  });
});
