import { isMemoryError, type MemoryError } from "@claw/memory-api";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { createEmbeddingProvider } from "./index.js";
import { type FakeGeminiServer, startFakeGeminiServer } from "./test-support/fake-gemini-server.js";

// Shaped like a real Google key so the shape-based scrubbing is exercised too.
const SECRET = "AIzaSyTestOnly0123456789abcdefghijklmno";

let server: FakeGeminiServer;

beforeEach(async () => {
  server = await startFakeGeminiServer();
});

afterEach(async () => {
  await server.close();
});

async function embedError(settings: { timeoutMs?: number } = {}, signal?: AbortSignal): Promise<MemoryError> {
  const provider = createEmbeddingProvider({
    apiKey: SECRET,
    baseURL: server.url,
    dimensions: 8,
    ...settings,
  });
  const error = await provider.embed(["a"], signal === undefined ? {} : { signal }).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isMemoryError(error)) throw new Error(`expected a MemoryError, got ${String(error)}`);
  expect(error.message).not.toContain(SECRET);
  expect(String(error.stack)).not.toContain(SECRET);
  expect(JSON.stringify({ message: (error.cause as Error | undefined)?.message })).not.toContain(SECRET);
  return error;
}

describe("gemini errors", () => {
  test.each([401, 403])("HTTP %i → PROVIDER_AUTH, not retryable, vendor message kept", async (status) => {
    server.failNext(1, { status });
    const error = await embedError();
    expect(error.code).toBe("PROVIDER_AUTH");
    expect(error.retryable).toBe(false);
    expect(error.message).toContain(`fake failure ${status}`);
  });

  test("400 with ErrorInfo reason API_KEY_INVALID → PROVIDER_AUTH", async () => {
    server.failNext(1, {
      status: 400,
      body: {
        error: {
          code: 400,
          message: "API key not valid. Please pass a valid API key.",
          status: "INVALID_ARGUMENT",
          details: [
            {
              "@type": "type.googleapis.com/google.rpc.ErrorInfo",
              reason: "API_KEY_INVALID",
              domain: "googleapis.com",
            },
          ],
        },
      },
    });
    const error = await embedError();
    expect(error.code).toBe("PROVIDER_AUTH");
    expect(error.message).toContain("API key not valid");
  });

  test("any other 400 → PROVIDER, not retryable", async () => {
    server.failNext(1, { status: 400 });
    const error = await embedError();
    expect(error.code).toBe("PROVIDER");
    expect(error.retryable).toBe(false);
  });

  test("429 → RATE_LIMITED with retryAfterSeconds from RetryInfo, and the SDK does not retry", async () => {
    server.failNext(1, {
      status: 429,
      body: {
        error: {
          code: 429,
          message: "Resource has been exhausted (e.g. check quota).",
          status: "RESOURCE_EXHAUSTED",
          details: [{ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "7s" }],
        },
      },
    });
    const error = await embedError();
    expect(error.code).toBe("RATE_LIMITED");
    expect(error.retryable).toBe(true);
    expect(error.retryAfterSeconds).toBe(7);
    expect(server.requests).toHaveLength(1);
  });

  test("429 → RATE_LIMITED with retryAfterSeconds from a Retry-After header", async () => {
    server.failNext(1, { status: 429, headers: { "retry-after": "12" } });
    const error = await embedError();
    expect(error.code).toBe("RATE_LIMITED");
    expect(error.retryAfterSeconds).toBe(12);
  });

  test("500 → PROVIDER, retryable, one attempt only (retries live in core)", async () => {
    server.failNext(1, { status: 500 });
    const error = await embedError();
    expect(error.code).toBe("PROVIDER");
    expect(error.retryable).toBe(true);
    expect(server.requests).toHaveLength(1);
  });

  test.each([
    [408, "TIMEOUT"],
    [504, "TIMEOUT"],
    [409, "PROVIDER"],
  ] as const)("HTTP %i → %s, retryable (the shared status table)", async (status, code) => {
    server.failNext(1, { status });
    const error = await embedError();
    expect({ code: error.code, retryable: error.retryable }).toEqual({ code, retryable: true });
    expect(error.message).toBe(`gemini: fake failure ${status} (HTTP ${status})`);
  });

  test("a slow server → TIMEOUT after timeoutMs", async () => {
    // The server answers after 2 s: an error at all means the 100 ms deadline fired first.
    server.delayNext(1, 2_000);
    const error = await embedError({ timeoutMs: 100 });
    expect(error.code).toBe("TIMEOUT");
    expect(error.message).toContain("100 ms");
  });

  test("the caller's signal aborts the request → TIMEOUT, not retryable", async () => {
    server.delayNext(1, 2_000);
    const error = await embedError({}, AbortSignal.timeout(50));
    expect(error.code).toBe("TIMEOUT");
    expect(error.retryable).toBe(false);
    const already = await embedError({}, AbortSignal.abort());
    expect(already.code).toBe("TIMEOUT");
  });

  test("nothing listening → UNAVAILABLE", async () => {
    await server.close();
    const error = await embedError();
    expect(error.code).toBe("UNAVAILABLE");
    expect(error.retryable).toBe(true);
    server = await startFakeGeminiServer();
  });

  test("a key echoed by the server never reaches the message", async () => {
    server.failNext(1, {
      status: 400,
      body: {
        error: {
          code: 400,
          message: `bad request for key ${SECRET} at /x?key=${SECRET}`,
          status: "INVALID_ARGUMENT",
        },
      },
    });
    const error = await embedError();
    expect(error.message).toContain("[redacted]");
  });

  test("a non-JSON error page keeps its status classification", async () => {
    server.failNext(1, {
      status: 503,
      body: "upstream overloaded",
      headers: { "content-type": "text/plain" },
    });
    const error = await embedError();
    expect(error.code).toBe("PROVIDER");
    expect(error.retryable).toBe(true);
  });
});
