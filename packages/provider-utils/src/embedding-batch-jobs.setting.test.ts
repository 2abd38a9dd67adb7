import { isMemoryError } from "@claw/memory-api";
import { describe, expect, it } from "vitest";
import { batchJobsSetting, createBatchJobs } from "./embedding-batch-jobs.js";
import { scriptedVendor } from "./test-support/scripted-vendor.js";

/** The scripted vendor, with one vector per text (its position) as results. */
function vectorVendor() {
  const vendor = scriptedVendor();
  return {
    ...vendor,
    collect: (_job: unknown, texts: readonly string[]) => texts.map((_, i) => Float32Array.of(i)),
  };
}

describe("createBatchJobs", () => {
  it("offers the vendor's limits, its jobs through runBatchJob and its cancelJob", async () => {
    const vendor = vectorVendor();
    const jobs = createBatchJobs(vendor);

    expect({ maxTextsPerJob: jobs.maxTextsPerJob, maxCharsPerJob: jobs.maxCharsPerJob }).toEqual({
      maxTextsPerJob: 3,
      maxCharsPerJob: 100,
    });
    expect(await jobs.embedInBatchJob(["a", "b"], { pollIntervalMs: 1 })).toEqual([
      Float32Array.of(0),
      Float32Array.of(1),
    ]);
    await jobs.cancelJob?.("job-9");
    expect(vendor.calls).toEqual(["submit", "get job-1", "cancelJob job-9"]);
  });
});

describe("batchJobsSetting", () => {
  const jobs = createBatchJobs(vectorVendor());

  it("is `{ batchJobs }` when on, by the setting or by default", () => {
    expect(batchJobsSetting(true, false, () => jobs)).toEqual({ batchJobs: jobs });
    expect(batchJobsSetting(undefined, true, () => jobs)).toEqual({ batchJobs: jobs });
  });

  it("is `{}` when off, without creating anything", () => {
    let created = 0;
    const create = () => {
      created++;
      return jobs;
    };
    expect(batchJobsSetting(false, true, create)).toEqual({});
    expect(batchJobsSetting(undefined, false, create)).toEqual({});
    expect(created).toBe(0);
  });

  it("rejects anything but a boolean as INVALID_INPUT on the batchApi field", () => {
    let error: unknown;
    try {
      batchJobsSetting("yes", true, () => jobs);
    } catch (e) {
      error = e;
    }
    expect(isMemoryError(error, "INVALID_INPUT")).toBe(true);
    expect(error).toMatchObject({ field: "batchApi", message: "batchApi: must be true or false, got yes" });
  });
});
