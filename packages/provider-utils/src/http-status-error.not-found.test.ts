import { isMemoryError, MemoryError } from "@claw/memory-api";
import { describe, expect, it } from "vitest";
import { httpStatusOf, notFoundOn404 } from "./http-status-error.js";

describe("httpStatusOf", () => {
  it("reads `status` (openai, @google/genai) or `statusCode` (voyageai), numbers only", () => {
    expect(httpStatusOf(Object.assign(new Error("x"), { status: 404 }))).toBe(404);
    expect(httpStatusOf({ statusCode: 503 })).toBe(503);
    expect(httpStatusOf({ status: "404" })).toBeUndefined();
    expect(httpStatusOf(undefined)).toBeUndefined();
    expect(httpStatusOf("404")).toBeUndefined();
  });
});

describe("notFoundOn404", () => {
  it("turns a MemoryError caused by an HTTP 404 into NOT_FOUND, not retryable, keeping it as the cause", () => {
    const original = new MemoryError("PROVIDER", "HTTP 404", { cause: { status: 404 }, retryable: false });

    const error = notFoundOn404(original, "vendor: no batch b1 to resume");

    expect(isMemoryError(error, "NOT_FOUND")).toBe(true);
    expect(error).toMatchObject({ message: "vendor: no batch b1 to resume", retryable: false });
    expect((error as Error).cause).toBe(original);
  });

  it("returns any other error as it is", () => {
    const server = new MemoryError("PROVIDER", "HTTP 500", { cause: { status: 500 } });
    const plain = Object.assign(new Error("404 but no MemoryError"), { status: 404 });
    expect(notFoundOn404(server, "x")).toBe(server);
    expect(notFoundOn404(plain, "x")).toBe(plain);
  });
});
