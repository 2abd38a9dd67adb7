import { describe, expect, it } from "vitest";
import { parseRetryAfter, parseRetryAfterValue } from "./retry-after.js";

describe("Retry-After in seconds", () => {
  it("reads delta-seconds, trimmed, decimals allowed", () => {
    expect(parseRetryAfterValue("12")).toBe(12);
    expect(parseRetryAfterValue(" 7 ")).toBe(7);
    expect(parseRetryAfterValue("0")).toBe(0);
    expect(parseRetryAfterValue("1.5")).toBe(1.5);
  });

  it("prefers OpenAI's retry-after-ms, in milliseconds", () => {
    const headers = new Headers({ "retry-after-ms": "1500", "retry-after": "9" });
    expect(parseRetryAfter(headers)).toBe(1.5);
  });

  it("falls back to retry-after when retry-after-ms is not a number", () => {
    expect(parseRetryAfter(new Headers({ "retry-after-ms": "later", "retry-after": "9" }))).toBe(9);
  });

  it("reads any header map with get(), and nothing from none", () => {
    const map = new Map([["retry-after", "4"]]);
    expect(parseRetryAfter({ get: (name) => map.get(name) })).toBe(4);
    expect(parseRetryAfter(new Headers())).toBeUndefined();
    expect(parseRetryAfter(undefined)).toBeUndefined();
    expect(parseRetryAfter(null)).toBeUndefined();
  });

  it("ignores empty, negative and exponent forms", () => {
    for (const value of ["", "  ", "-3", "1e3", "0x10"]) expect(parseRetryAfterValue(value)).toBeUndefined();
    expect(parseRetryAfterValue(null)).toBeUndefined();
  });
});
