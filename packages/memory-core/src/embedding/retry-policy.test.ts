import { MemoryError } from "@claw/memory-api";
import { describe, expect, it } from "vitest";
import { withRetries } from "./retry-policy.js";

const policy = { maxRetries: 3, deadlineMs: 10_000, baseDelayMs: 1, maxDelayMs: 4 };

function failing(errors: unknown[]) {
  let calls = 0;
  return {
    get calls() {
      return calls;
    },
    attempt: async () => {
      const error = errors[calls++];
      if (error !== undefined) throw error;
      return "ok";
    },
  };
}

describe("retries with backoff", () => {
  it("retries rate limits and server errors, then succeeds", async () => {
    const f = failing([
      new MemoryError("RATE_LIMITED", "slow down", { retryAfterSeconds: 0.001 }),
      new MemoryError("PROVIDER", "502", { retryable: true }),
    ]);
    const waits: number[] = [];
    expect(await withRetries(f.attempt, policy, { onRetry: (_, ms) => waits.push(ms) })).toBe("ok");
    expect(f.calls).toBe(3);
    expect(waits[0]).toBe(1); // Retry-After (1 ms) wins over the backoff
  });

  it("does not retry what cannot succeed", async () => {
    const f = failing([new MemoryError("PROVIDER_AUTH", "bad key"), undefined]);
    await expect(withRetries(f.attempt, policy)).rejects.toMatchObject({ code: "PROVIDER_AUTH" });
    expect(f.calls).toBe(1);
    const plain = failing([new Error("bug"), undefined]);
    await expect(withRetries(plain.attempt, policy)).rejects.toThrow("bug");
    expect(plain.calls).toBe(1);
  });

  it("stops after maxRetries", async () => {
    const busy = () => new MemoryError("RATE_LIMITED", "busy", { retryAfterSeconds: 0 });
    const f = failing([busy(), busy(), busy(), busy(), busy()]);
    await expect(withRetries(f.attempt, policy)).rejects.toMatchObject({ code: "RATE_LIMITED" });
    expect(f.calls).toBe(4);
  });

  it("gives up rather than wait past the deadline", async () => {
    const f = failing([
      new MemoryError("RATE_LIMITED", "come back in an hour", { retryAfterSeconds: 3600 }),
      undefined,
    ]);
    await expect(withRetries(f.attempt, policy)).rejects.toMatchObject({ code: "RATE_LIMITED" });
    expect(f.calls).toBe(1);
  });

  it("doubles the backoff with jitter, capped", async () => {
    const busy = () => new MemoryError("UNAVAILABLE", "down");
    const f = failing([busy(), busy(), busy()]);
    const waits: number[] = [];
    await withRetries(f.attempt, policy, { random: () => 1, onRetry: (_, ms) => waits.push(ms) });
    expect(waits).toEqual([1, 2, 4]);
  });
});
