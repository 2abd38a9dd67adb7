import { isMemoryError, type MemoryError } from "@claw/memory-api";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { type FakeVoyageServer, startFakeVoyageServer } from "./test-support/fake-voyage-server.js";
import { createEmbeddingProvider, type VoyageEmbeddingSettings } from "./voyage-embedding-provider.js";

const KEY = "pa-super-secret-key-123";
let server: FakeVoyageServer;

beforeEach(async () => {
  server = await startFakeVoyageServer();
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await server.close();
});

function provider(settings: VoyageEmbeddingSettings = {}) {
  return createEmbeddingProvider({ apiKey: KEY, baseURL: server.baseURL, ...settings });
}

async function failure(promise: Promise<unknown>): Promise<MemoryError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isMemoryError(error)) throw new Error(`expected a MemoryError, got ${String(error)}`);
  expect(error.message).not.toContain(KEY);
  expect(JSON.stringify(error)).not.toContain(KEY);
  return error;
}

describe("voyage provider: errors", () => {
  it("without a key fails with PROVIDER_AUTH naming VOYAGE_API_KEY, before any request", async () => {
    const error = await failure(createEmbeddingProvider({ baseURL: server.baseURL }).embed(["a"]));
    expect(error.code).toBe("PROVIDER_AUTH");
    expect(error.message).toContain("VOYAGE_API_KEY");
    expect(error.message).toContain("providers.voyage.api_key");
    expect(server.requests).toHaveLength(0);
  });

  it("never reads the environment: only the apps do", async () => {
    vi.stubEnv("VOYAGE_API_KEY", "env-key");
    const error = await failure(createEmbeddingProvider({ baseURL: server.baseURL }).embed(["a"]));
    expect(error.code).toBe("PROVIDER_AUTH");
    expect(server.requests).toHaveLength(0);
  });

  it("maps 401 and 403 to PROVIDER_AUTH with the vendor's detail", async () => {
    server.failNext({ status: 401, body: { detail: "Provided API key is invalid." } });
    const error = await failure(provider().embed(["a"]));
    expect(error.code).toBe("PROVIDER_AUTH");
    expect(error.retryable).toBe(false);
    expect(error.message).toContain("Provided API key is invalid.");
    server.failNext({ status: 403, body: { detail: "forbidden" } });
    expect((await failure(provider().embed(["a"]))).code).toBe("PROVIDER_AUTH");
  });

  it("maps 429 to RATE_LIMITED with Retry-After in seconds", async () => {
    server.failNext({ status: 429, body: { detail: "slow down" }, headers: { "retry-after": "7" } });
    const error = await failure(provider().embed(["a"]));
    expect(error.code).toBe("RATE_LIMITED");
    expect(error.retryable).toBe(true);
    expect(error.retryAfterSeconds).toBe(7);
    expect(error.message).toContain("slow down");
    server.failNext({ status: 429, body: { detail: "slow down" } });
    expect((await failure(provider().embed(["a"]))).retryAfterSeconds).toBeUndefined();
  });

  it("maps 5xx to a retryable PROVIDER error and other 4xx to a final one", async () => {
    server.failNext({ status: 500, body: { detail: "internal" } });
    const serverError = await failure(provider().embed(["a"]));
    expect(serverError).toMatchObject({ code: "PROVIDER", retryable: true });
    expect(serverError.message).toContain("HTTP 500");
    server.failNext({ status: 400, body: { detail: "input too long" } });
    const badRequest = await failure(provider().embed(["a"]));
    expect(badRequest).toMatchObject({ code: "PROVIDER", retryable: false });
    expect(badRequest.message).toContain("input too long");
    server.failNext({ status: 502, body: "<html>bad gateway</html>" });
    expect(await failure(provider().embed(["a"]))).toMatchObject({ code: "PROVIDER", retryable: true });
  });

  it("maps 408 and 504 to a retryable TIMEOUT and 409 to a retryable PROVIDER error (the shared table)", async () => {
    for (const [status, code] of [
      [408, "TIMEOUT"],
      [504, "TIMEOUT"],
      [409, "PROVIDER"],
    ] as const) {
      server.failNext({ status, body: { detail: `status ${status}` } });
      const error = await failure(provider().embed(["a"]));
      expect({ code: error.code, retryable: error.retryable }).toEqual({ code, retryable: true });
      expect(error.message).toBe(`voyage: HTTP ${status}: status ${status}`);
    }
  });

  it("does not retry by itself unless maxRetries says so", async () => {
    server.failNext({ status: 500, body: { detail: "internal" } });
    await failure(provider().embed(["a"]));
    expect(server.requests).toHaveLength(1);
    server.failNext({ status: 503, body: {}, headers: { "retry-after": "0" } });
    const vectors = await provider({ maxRetries: 1 }).embed(["a"]);
    expect(vectors).toHaveLength(1);
    expect(server.requests).toHaveLength(3);
  });

  it("maps a slow answer to TIMEOUT", async () => {
    server.delayNext(2_000);
    const error = await failure(provider({ timeoutMs: 100 }).embed(["a"]));
    expect(error.code).toBe("TIMEOUT");
    expect(error.retryable).toBe(true);
  });

  it("maps an unreachable server to UNAVAILABLE", async () => {
    const baseURL = server.baseURL;
    await server.close();
    const error = await failure(createEmbeddingProvider({ apiKey: KEY, baseURL }).embed(["a"]));
    expect(error.code).toBe("UNAVAILABLE");
    server = await startFakeVoyageServer();
  });

  it("rethrows the caller's abort reason instead of a provider error", async () => {
    server.delayNext(2_000);
    const controller = new AbortController();
    const pending = provider().embed(["a"], { signal: controller.signal });
    setTimeout(() => controller.abort(new Error("caller gave up")), 50);
    await expect(pending).rejects.toThrow("caller gave up");
    const aborted = AbortSignal.abort(new Error("already"));
    await expect(provider().embed(["a"], { signal: aborted })).rejects.toThrow("already");
  });

  it("never puts the API key in a message, even when the vendor echoes it", async () => {
    server.failNext({ status: 401, body: { detail: `Key ${KEY} is not valid` } });
    const auth = await failure(provider().embed(["a"]));
    expect(auth.message).toContain("[redacted]");
    // The cause is a redacted copy of the SDK's error: its status stays, the echoed body does not.
    expect(auth.cause).toMatchObject({ name: "VoyageAIError", statusCode: 401 });
    for (let e: unknown = auth.cause; e instanceof Error; e = e.cause) {
      expect(`${e.message} ${e.stack} ${JSON.stringify(e)}`).not.toContain(KEY);
    }
    server.failNext({ status: 500, body: `upstream said ${KEY}` });
    const upstream = await failure(provider().embed(["a"]));
    expect(upstream.message).not.toContain(KEY);
  });
});
