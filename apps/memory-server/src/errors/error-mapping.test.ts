import { MEMORY_ERROR_CODES, MemoryError, type MemoryErrorCode } from "@claw/memory-api";
import { describe, expect, it } from "vitest";
import { ADMIN, bearer, errorOf, testServer } from "../test-support/server-harness.js";
import { HttpError, STATUS_BY_CODE, toApiError } from "./error-mapping.js";

const EXPECTED: Record<MemoryErrorCode, [number, string | null]> = {
  INVALID_INPUT: [400, null],
  UNAUTHORIZED: [401, null],
  FORBIDDEN: [403, null],
  NOT_FOUND: [404, null],
  CONFLICT: [409, null],
  RATE_LIMITED: [429, null],
  PROVIDER: [502, "the embedding provider failed; see the server log"],
  PROVIDER_AUTH: [502, "the embedding provider refused the server's credentials; see the server log"],
  STORAGE: [503, "the memory store failed; see the server log"],
  CORRUPT: [503, "the memory store's database is damaged; the operator should run `claw-memory doctor`"],
  STORAGE_FULL: [503, "the server's disk is full; nothing was written; try again once space is freed"],
  UNAVAILABLE: [503, null],
  TIMEOUT: [504, null],
};

describe("error mapping", () => {
  it("maps every MemoryError code to its status, in one table", () => {
    for (const code of MEMORY_ERROR_CODES) {
      const [status, hidden] = EXPECTED[code];
      const mapped = toApiError(new MemoryError(code, `detail of ${code} at /secret/path sk-live-123`));
      expect(mapped.status, code).toBe(status);
      expect(STATUS_BY_CODE[code]).toBe(status);
      expect(mapped.code).toBe(code);
      expect(mapped.message).toBe(hidden ?? `detail of ${code} at /secret/path sk-live-123`);
      expect(mapped.logMessage).toBe(`detail of ${code} at /secret/path sk-live-123`);
    }
  });

  it("maps the HTTP layer's own failures", () => {
    expect(toApiError({ code: "FST_ERR_CTP_BODY_TOO_LARGE", statusCode: 413 })).toMatchObject({
      status: 413,
      code: "PAYLOAD_TOO_LARGE",
    });
    expect(toApiError({ code: "FST_ERR_CTP_INVALID_MEDIA_TYPE", statusCode: 415 })).toMatchObject({
      status: 415,
      code: "UNSUPPORTED_MEDIA_TYPE",
    });
    expect(toApiError(new HttpError("METHOD_NOT_ALLOWED", "use POST"))).toMatchObject({ status: 405 });
    expect(toApiError(new TypeError("x is undefined"))).toMatchObject({
      status: 500,
      code: "INTERNAL",
      message: "internal error; see the server log",
      logMessage: "x is undefined",
    });
    expect(toApiError(MemoryError.invalidInput("x", "bad")).message).toBe("x: bad");
    expect(toApiError(new MemoryError("RATE_LIMITED", "slow down", { retryAfterSeconds: 7 }))).toMatchObject({
      status: 429,
      retryAfterSeconds: 7,
    });
  });

  it("answers a failing store with 503 and a generic body: no stack, no path", async () => {
    const { app, memory } = await testServer();
    memory.get = async () => {
      throw new MemoryError("STORAGE", "SQLITE_IOERR on /home/alice/.claw-memory/brain.db");
    };
    const response = await app.inject({ method: "GET", url: "/v1/memories/k", headers: bearer(ADMIN) });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({
      error: { code: "STORAGE", message: "the memory store failed; see the server log" },
    });
  });

  it("answers a bug with 500 INTERNAL and never its stack", async () => {
    const { app, memory } = await testServer();
    memory.list = async () => {
      throw new TypeError("Cannot read properties of undefined (reading 'x')");
    };
    const response = await app.inject({ method: "GET", url: "/v1/memories", headers: bearer(ADMIN) });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({
      error: { code: "INTERNAL", message: "internal error; see the server log" },
    });
    expect(response.body).not.toContain("at ");
  });

  it("answers 413 for a body over server.body_limit_bytes", async () => {
    const { app, memory } = await testServer({ limits: { bodyLimitBytes: 1024 } });
    const response = await app.inject({
      method: "POST",
      url: "/v1/memories",
      headers: bearer(ADMIN),
      payload: { key: "big", content: "x".repeat(2000) },
    });
    expect(response.statusCode).toBe(413);
    expect(errorOf(response)).toEqual({
      code: "PAYLOAD_TOO_LARGE",
      message: "the request body is over the server's body limit",
    });
    expect(await memory.count()).toBe(0);
  });

  it("answers invalid JSON and a wrong media type in the same shape", async () => {
    const { app } = await testServer();
    const badJson = await app.inject({
      method: "POST",
      url: "/v1/memories",
      headers: { ...bearer(ADMIN), "content-type": "application/json" },
      payload: "{not json",
    });
    expect(badJson.statusCode).toBe(400);
    expect(errorOf(badJson).code).toBe("INVALID_INPUT");
    const text = await app.inject({
      method: "POST",
      url: "/v1/memories",
      headers: { ...bearer(ADMIN), "content-type": "text/plain" },
      payload: "hello",
    });
    expect(errorOf(text)).toEqual({ code: "INVALID_INPUT", message: "body: must be object" });
    const xml = await app.inject({
      method: "POST",
      url: "/v1/memories",
      headers: { ...bearer(ADMIN), "content-type": "application/xml" },
      payload: "<key/>",
    });
    expect(xml.statusCode).toBe(415);
    expect(errorOf(xml).code).toBe("UNSUPPORTED_MEDIA_TYPE");
    const importJson = await app.inject({
      method: "POST",
      url: "/v1/import",
      headers: bearer(ADMIN),
      payload: { key: "k", content: "v" },
    });
    expect(importJson.statusCode).toBe(415);
    expect(errorOf(importJson).message).toBe(
      "send the entries as application/x-ndjson (one JSON object per line), got application/json",
    );
  });
});
