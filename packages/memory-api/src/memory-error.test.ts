import { describe, expect, it } from "vitest";
import { isMemoryError, MemoryError } from "./memory-error.js";

describe("MemoryError", () => {
  it("carries a code, the field and the cause", () => {
    const cause = new Error("low level");
    const err = new MemoryError("STORAGE", "disk full", { cause });
    expect(err.code).toBe("STORAGE");
    expect(err.cause).toBe(cause);
    expect(err.name).toBe("MemoryError");
    const bad = MemoryError.invalidInput("key", "must not be empty");
    expect(bad.code).toBe("INVALID_INPUT");
    expect(bad.field).toBe("key");
    expect(bad.message).toBe("key: must not be empty");
  });

  it("is recognised across copies by its marker, not by instanceof", () => {
    const marker = Symbol.for("claw.memory.error");
    const foreign = Object.assign(new Error("x"), { code: "NOT_FOUND", [marker]: true });
    expect(isMemoryError(foreign)).toBe(true);
    expect(isMemoryError(foreign, "NOT_FOUND")).toBe(true);
    expect(isMemoryError(foreign, "STORAGE")).toBe(false);
    expect(isMemoryError(new Error("plain"))).toBe(false);
    expect(isMemoryError({ code: "NOT_FOUND" })).toBe(false);
    expect(isMemoryError(null)).toBe(false);
  });

  it("marks rate limits, timeouts and unavailability as retryable by default", () => {
    expect(new MemoryError("RATE_LIMITED", "slow down").retryable).toBe(true);
    expect(new MemoryError("TIMEOUT", "late").retryable).toBe(true);
    expect(new MemoryError("INVALID_INPUT", "bad").retryable).toBe(false);
    expect(new MemoryError("PROVIDER", "boom", { retryable: true }).retryable).toBe(true);
  });
});
