import { describe, expect, it } from "vitest";
import { parseRetryAfter, parseRetryAfterValue } from "./retry-after.js";

const NOW = Date.parse("2026-01-01T00:00:00Z");

describe("Retry-After as an HTTP date", () => {
  it("is the seconds from the injected now until then", () => {
    expect(parseRetryAfterValue("Thu, 01 Jan 2026 00:00:30 GMT", NOW)).toBe(30);
    expect(parseRetryAfter(new Headers({ "retry-after": "Thu, 01 Jan 2026 00:02:00 GMT" }), NOW)).toBe(120);
  });

  it("rounds up to whole seconds, so that a retry never comes early", () => {
    expect(parseRetryAfterValue("Thu, 01 Jan 2026 00:00:30 GMT", NOW + 200)).toBe(30);
  });

  it("is 0 for a date in the past", () => {
    expect(parseRetryAfterValue("Wed, 31 Dec 2025 23:59:00 GMT", NOW)).toBe(0);
  });

  it("ignores what is no date", () => {
    expect(parseRetryAfterValue("soon", NOW)).toBeUndefined();
    expect(parseRetryAfterValue("-1", NOW)).toBeUndefined();
  });
});
