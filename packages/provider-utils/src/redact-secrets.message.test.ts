import { describe, expect, it } from "vitest";
import { type Redaction, redactSecrets } from "./redact-secrets.js";

// The shapes the Gemini package passes: a `?key=` value and Google's AIza… keys.
const google: Redaction = {
  secrets: [],
  patterns: [
    { pattern: /([?&]key=)[^&\s"']+/gi, replacement: "$1[redacted]" },
    { pattern: /AIza[0-9A-Za-z_-]{35}/g },
  ],
};

describe("redactSecrets", () => {
  it("replaces every occurrence of every given secret", () => {
    const text = "key sk-1 and sk-1 again, then pa-2";
    expect(redactSecrets(text, { secrets: ["sk-1", "pa-2"] })).toBe(
      "key [redacted] and [redacted] again, then [redacted]",
    );
  });

  it("skips undefined and empty secrets (a keyless endpoint)", () => {
    expect(redactSecrets("nothing to hide", { secrets: [undefined, ""] })).toBe("nothing to hide");
  });

  it("replaces secret shapes it was not told about, keeping what surrounds them", () => {
    const key = `AIza${"x".repeat(35)}`;
    expect(redactSecrets(`GET /v1beta/models?key=abc123&alt=json for ${key}`, google)).toBe(
      "GET /v1beta/models?key=[redacted]&alt=json for [redacted]",
    );
  });

  it("replaces every match of a pattern given without the g flag", () => {
    expect(redactSecrets("t0k t0k", { secrets: [], patterns: [{ pattern: /t0k/ }] })).toBe(
      "[redacted] [redacted]",
    );
  });
});
