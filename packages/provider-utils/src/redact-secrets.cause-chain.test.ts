import { describe, expect, it } from "vitest";
import { type Redaction, redactCause } from "./redact-secrets.js";

const KEY = "sk-secret-0123";
const redaction: Redaction = { secrets: [KEY] };

/** Every message, string form and stack along a cause chain. */
function textsOfChain(error: unknown): string[] {
  const texts: string[] = [];
  for (let e = error; e instanceof Error; e = e.cause) texts.push(e.message, String(e), e.stack ?? "");
  return texts;
}

class SdkError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly body: unknown,
  ) {
    super(message);
    this.name = "SdkError";
  }
}

describe("redactCause", () => {
  it("keeps the SDK's own error when nothing in its chain holds a secret", () => {
    const error = new SdkError("HTTP 500", 500, { detail: "internal" });
    expect(redactCause(error, redaction)).toBe(error);
    expect(redactCause(undefined, redaction)).toBeUndefined();
  });

  it("replaces a chain whose message holds a secret by redacted copies, keeping names and status", () => {
    const error = new SdkError(`bad key ${KEY}`, 401, null);

    const cause = redactCause(error, redaction) as Error & { status?: number };

    expect(cause).not.toBe(error);
    expect(cause).toMatchObject({ name: "SdkError", message: "bad key [redacted]", status: 401 });
    for (const text of textsOfChain(cause)) expect(text).not.toContain(KEY);
  });

  it("redacts every link down the chain, whichever link held the secret", () => {
    const inner = Object.assign(new Error(`connect failed for ${KEY}`), { code: "ECONNRESET" });
    const outer = new Error("fetch failed", { cause: inner });

    const cause = redactCause(outer, redaction) as Error;

    expect(cause.message).toBe("fetch failed");
    expect(cause.cause).toMatchObject({ message: "connect failed for [redacted]", code: "ECONNRESET" });
    for (const text of textsOfChain(cause)) expect(text).not.toContain(KEY);
  });

  it("leaves behind details (a response body) that echo a secret", () => {
    const error = new SdkError("HTTP 401", 401, { detail: `Key ${KEY} is not valid` });
    const withDetails: Redaction = {
      ...redaction,
      detailsOf: (e) => (e instanceof SdkError ? e.body : undefined),
    };

    const cause = redactCause(error, withDetails);

    expect(cause).not.toBe(error);
    expect(JSON.stringify(cause)).not.toContain(KEY);
    expect(cause).toMatchObject({ name: "SdkError", message: "HTTP 401", status: 401 });
    expect(cause).not.toHaveProperty("body");
  });

  it("treats details it cannot serialise as holding a secret", () => {
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    const error = new SdkError("HTTP 500", 500, circular);

    const cause = redactCause(error, { ...redaction, detailsOf: (e) => (e as SdkError).body });

    expect(cause).not.toBe(error);
    expect(cause).toMatchObject({ message: "HTTP 500", status: 500 });
  });

  it("copies a thrown string as an Error, redacted", () => {
    expect(redactCause(`raw ${KEY}`, redaction)).toMatchObject({ name: "Error", message: "raw [redacted]" });
  });
});
