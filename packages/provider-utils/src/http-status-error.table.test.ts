import { isMemoryError } from "@claw/memory-api";
import { describe, expect, it } from "vitest";
import { classifyFailure, type ProviderFailure, providerError } from "./http-status-error.js";

const http = (status: number, facts: Partial<Extract<ProviderFailure, { kind: "http" }>> = {}) =>
  ({ kind: "http", status, ...facts }) as const;

describe("the status → MemoryError table", () => {
  it.each([
    [http(401), { code: "PROVIDER_AUTH", retryable: false }],
    [http(403), { code: "PROVIDER_AUTH", retryable: false }],
    [http(400, { credentialsRejected: true }), { code: "PROVIDER_AUTH", retryable: false }],
    [http(408), { code: "TIMEOUT", retryable: true }],
    [http(504), { code: "TIMEOUT", retryable: true }],
    [http(429), { code: "RATE_LIMITED", retryable: true }],
    [http(429, { retryAfterSeconds: 7 }), { code: "RATE_LIMITED", retryable: true, retryAfterSeconds: 7 }],
    [http(429, { quotaExhausted: true, retryAfterSeconds: 7 }), { code: "PROVIDER", retryable: false }],
    [http(409), { code: "PROVIDER", retryable: true }],
    [http(500), { code: "PROVIDER", retryable: true }],
    [http(502), { code: "PROVIDER", retryable: true }],
    [http(503, { retryAfterSeconds: 3 }), { code: "PROVIDER", retryable: true }],
    [http(400), { code: "PROVIDER", retryable: false }],
    [http(404), { code: "PROVIDER", retryable: false }],
    [http(422), { code: "PROVIDER", retryable: false }],
    [{ kind: "unreachable" }, { code: "UNAVAILABLE", retryable: true }],
    [{ kind: "deadline" }, { code: "TIMEOUT", retryable: true }],
    [{ kind: "unexpected" }, { code: "PROVIDER", retryable: false }],
  ] as Array<[ProviderFailure, object]>)("%j → %j", (failure, expected) => {
    expect(classifyFailure(failure)).toEqual(expected);
  });
});

describe("providerError", () => {
  it("builds the MemoryError the table calls for, with retryAfterSeconds and the cause", () => {
    const cause = new Error("HTTP 429 from the SDK");

    const error = providerError(http(429, { retryAfterSeconds: 2.5 }), "vendor: slow down", { cause });

    expect(isMemoryError(error, "RATE_LIMITED")).toBe(true);
    expect(error).toMatchObject({ message: "vendor: slow down", retryable: true, retryAfterSeconds: 2.5 });
    expect(error.cause).toBe(cause);
  });

  it("adds the auth hint to PROVIDER_AUTH errors only", () => {
    const options = { authHint: "check VENDOR_API_KEY" };
    expect(providerError(http(401), "vendor: HTTP 401", options).message).toBe(
      "vendor: HTTP 401 (check VENDOR_API_KEY)",
    );
    expect(providerError(http(500), "vendor: HTTP 500", options).message).toBe("vendor: HTTP 500");
  });

  it("has no cause when none is given", () => {
    expect(providerError({ kind: "deadline" }, "vendor: no answer")).not.toHaveProperty("cause");
  });

  it("redacts the message and the cause chain when given a redaction", () => {
    const cause = new Error("echo of sk-123", { cause: new Error("deeper sk-123") });

    const error = providerError(http(400), "vendor: bad key sk-123", {
      cause,
      redaction: { secrets: ["sk-123"] },
    });

    expect(error.message).toBe("vendor: bad key [redacted]");
    expect((error.cause as Error).message).toBe("echo of [redacted]");
    expect(((error.cause as Error).cause as Error).message).toBe("deeper [redacted]");
  });
});
