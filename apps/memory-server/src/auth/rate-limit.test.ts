import { isMemoryError } from "@claw/memory-api";
import { describe, expect, it } from "vitest";
import { ADMIN, bearer, errorOf, READER, testServer } from "../test-support/server-harness.js";
import { RateLimiter } from "./rate-limit.js";

describe("rate limit", () => {
  it("lets a burst through, refuses the next request, and refills with time", () => {
    let now = 0;
    const limiter = new RateLimiter({ capacity: 3, refillPerSecond: 2 }, () => now);
    expect([1, 2, 3].map(() => limiter.take("a").remaining)).toEqual([2, 1, 0]);
    let refused: unknown;
    try {
      limiter.take("a");
    } catch (error) {
      refused = error;
    }
    expect(isMemoryError(refused, "RATE_LIMITED")).toBe(true);
    expect((refused as { retryAfterSeconds: number }).retryAfterSeconds).toBe(1);
    // Another caller has its own bucket.
    expect(limiter.take("b").remaining).toBe(2);
    now = 500; // one request refilled
    expect(limiter.take("a").remaining).toBe(0);
    now = 10_000; // never past the capacity
    expect(limiter.take("a").remaining).toBe(2);
  });

  it("answers 429 with Retry-After per token, and counts it", async () => {
    let now = 1_000;
    const { app } = await testServer({
      limits: { rateLimit: { capacity: 2, refillPerSecond: 0.5 } },
      now: () => now,
    });
    const get = (token: string) => app.inject({ method: "GET", url: "/v1/memories", headers: bearer(token) });
    expect((await get(ADMIN)).headers["x-ratelimit-remaining"]).toBe("1");
    expect((await get(ADMIN)).statusCode).toBe(200);
    const refused = await get(ADMIN);
    expect(refused.statusCode).toBe(429);
    expect(refused.headers["retry-after"]).toBe("2");
    expect(errorOf(refused)).toEqual({ code: "RATE_LIMITED", message: "too many requests: retry in 2 s" });
    expect((await get(READER)).statusCode).toBe(200);
    now += 2_000;
    expect((await get(ADMIN)).statusCode).toBe(200);
    const metrics = await app.inject({ method: "GET", url: "/metrics", headers: bearer(READER) });
    expect(metrics.body).toContain('claw_memory_rate_limited_total{token="admin"} 1');
  });

  it("limits token guessing by address", async () => {
    const { app } = await testServer({
      limits: { rateLimit: { capacity: 2, refillPerSecond: 0.01 } },
      now: () => 0,
    });
    const guess = () => app.inject({ method: "GET", url: "/v1/status", headers: bearer("guess") });
    expect((await guess()).statusCode).toBe(401);
    expect((await guess()).statusCode).toBe(401);
    expect((await guess()).statusCode).toBe(429);
  });

  it("does not limit /healthz", async () => {
    const { app } = await testServer({
      limits: { rateLimit: { capacity: 1, refillPerSecond: 0.01 } },
      now: () => 0,
    });
    for (let i = 0; i < 3; i++)
      expect((await app.inject({ method: "GET", url: "/healthz" })).statusCode).toBe(200);
  });
});
