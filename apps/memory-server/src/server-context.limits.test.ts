import { describe, expect, it } from "vitest";
import { resolveLimits } from "./server-context.js";
import { testConfig } from "./test-support/server-harness.js";

describe("server limits from [server]", () => {
  it("defaults to a 30 s timeout and 100 requests at once, 20 per second, per token", () => {
    const limits = resolveLimits(testConfig());
    expect(limits.requestTimeoutMs).toBe(30_000);
    expect(limits.rateLimit).toEqual({ capacity: 100, refillPerSecond: 20 });
    expect(limits.bodyLimitBytes).toBe(1_048_576);
  });

  it("reads request_timeout_ms and rate_limit_*; rate_limit_per_second = 0 turns the limit off", () => {
    const config = testConfig({
      server: { requestTimeoutMs: 5_000, rateLimitBurst: 7, rateLimitPerSecond: 3 },
    });
    expect(resolveLimits(config).requestTimeoutMs).toBe(5_000);
    expect(resolveLimits(config).rateLimit).toEqual({ capacity: 7, refillPerSecond: 3 });
    expect(resolveLimits(testConfig({ server: { rateLimitPerSecond: 0 } })).rateLimit).toBe(false);
  });

  it("reads the recall, list and import caps; recall stays within [memory] recall_limit_max", () => {
    expect(resolveLimits(testConfig())).toMatchObject({
      recallLimitMax: 100,
      listLimitMax: 1_000,
      importChunkSize: 500,
      importErrorsReported: 100,
    });
    const config = testConfig({
      server: { recallLimitMax: 250, listLimitMax: 50, importChunkSize: 20, importErrorsReported: 3 },
    });
    expect(resolveLimits(config)).toMatchObject({
      recallLimitMax: 250,
      listLimitMax: 50,
      importChunkSize: 20,
      importErrorsReported: 3,
    });
    const narrow = testConfig({ server: { recallLimitMax: 250 }, memory: { recallLimitMax: 40 } });
    expect(resolveLimits(narrow).recallLimitMax).toBe(40);
  });

  it("lets startServer's explicit limits win over the config", () => {
    const config = testConfig({ server: { requestTimeoutMs: 5_000 } });
    expect(resolveLimits(config, { requestTimeoutMs: 50, rateLimit: false })).toMatchObject({
      requestTimeoutMs: 50,
      rateLimit: false,
    });
  });
});
