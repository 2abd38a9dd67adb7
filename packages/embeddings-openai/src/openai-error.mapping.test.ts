import { isMemoryError, type MemoryError } from "@claw/memory-api";
import { describe, expect, it, vi } from "vitest";
import { createEmbeddingProvider } from "./index.js";
import { startFakeOpenAIServer, useFakeOpenAIServer } from "./test-support/fake-openai-server.js";

const KEY = "sk-secret-0123456789abcdef";

const fake = await useFakeOpenAIServer();

function provider(timeoutMs?: number) {
  return createEmbeddingProvider({ apiKey: KEY, baseURL: fake.baseURL, dimensions: 8, timeoutMs });
}

async function failure(promise: Promise<unknown>): Promise<MemoryError> {
  const error = await promise.then(
    () => expect.unreachable("the call should fail"),
    (e: unknown) => e,
  );
  expect(isMemoryError(error)).toBe(true);
  return error as MemoryError;
}

function messagesOfChain(error: unknown): string[] {
  const messages: string[] = [];
  for (let e = error; e instanceof Error; e = e.cause) messages.push(e.message, String(e), e.stack ?? "");
  return messages;
}

describe("SDK errors become MemoryErrors", () => {
  it("401 → PROVIDER_AUTH, not retryable, with the vendor's message", async () => {
    fake.failNext({
      status: 401,
      body: { error: { message: "Incorrect API key provided.", type: "invalid_request_error" } },
    });
    const error = await failure(provider().embed(["a"]));
    expect(error.code).toBe("PROVIDER_AUTH");
    expect(error.retryable).toBe(false);
    expect(error.message).toContain("Incorrect API key provided.");
  });

  it("429 with Retry-After: 7 → RATE_LIMITED after 7 s, one request (no SDK retries)", async () => {
    fake.failNext({ status: 429, headers: { "Retry-After": "7" } });
    const error = await failure(provider().embed(["a"]));
    expect(error).toMatchObject({ code: "RATE_LIMITED", retryAfterSeconds: 7, retryable: true });
    expect(fake.requests).toHaveLength(1);
  });

  it("429 with retry-after-ms (OpenAI's precise form) → RATE_LIMITED after those milliseconds", async () => {
    fake.failNext({ status: 429, headers: { "retry-after-ms": "1500", "retry-after": "9" } });
    const error = await failure(provider().embed(["a"]));
    expect(error).toMatchObject({ code: "RATE_LIMITED", retryAfterSeconds: 1.5, retryable: true });
  });

  it.each([
    [408, "TIMEOUT"],
    [504, "TIMEOUT"],
    [409, "PROVIDER"],
  ] as const)("%i → %s, retryable (the shared status table)", async (status, code) => {
    fake.failNext({ status });
    const error = await failure(provider().embed(["a"]));
    expect({ code: error.code, retryable: error.retryable }).toEqual({ code, retryable: true });
    expect(error.message).toBe(
      `openai embeddings (text-embedding-3-small): ${status} fake failure ${status}`,
    );
  });

  it("500 → PROVIDER retryable; 400 → PROVIDER not retryable", async () => {
    fake.failNext({ status: 500 });
    expect(await failure(provider().embed(["a"]))).toMatchObject({ code: "PROVIDER", retryable: true });
    fake.failNext({ status: 400 });
    expect(await failure(provider().embed(["a"]))).toMatchObject({ code: "PROVIDER", retryable: false });
  });

  it("an exhausted quota (429 insufficient_quota) is not worth retrying", async () => {
    fake.failNext({
      status: 429,
      body: { error: { message: "You exceeded your current quota", code: "insufficient_quota" } },
    });
    expect(await failure(provider().embed(["a"]))).toMatchObject({ code: "PROVIDER", retryable: false });
  });

  it("a server slower than timeoutMs → TIMEOUT", async () => {
    fake.delayNext(1_000);
    const error = await failure(provider(100).embed(["a"]));
    expect(error).toMatchObject({ code: "TIMEOUT", retryable: true });
    // The server has taken the request (and its delay) before the next test scripts the fake.
    await vi.waitFor(() => expect(fake.requests.length).toBe(1));
  });

  it("a refused connection → UNAVAILABLE", async () => {
    const closed = await startFakeOpenAIServer();
    await closed.close();
    const p = createEmbeddingProvider({ apiKey: KEY, baseURL: closed.baseURL, dimensions: 8 });
    expect(await failure(p.embed(["a"]))).toMatchObject({ code: "UNAVAILABLE", retryable: true });
  });

  it("the caller's abort surfaces as its own reason, not a MemoryError", async () => {
    fake.delayNext(1_000);
    const controller = new AbortController();
    const pending = provider().embed(["a"], { signal: controller.signal });
    setTimeout(() => controller.abort(new DOMException("stop", "AbortError")), 20);
    await expect(pending).rejects.toMatchObject({ name: "AbortError", message: "stop" });
    // The server has taken the request (and its delay) before the next test scripts the fake.
    await vi.waitFor(() => expect(fake.requests.length).toBe(1));
  });

  it("never lets the key into a message or cause, even when the server echoes it", async () => {
    for (const status of [401, 429, 500, 400]) {
      fake.failNext({
        status,
        body: { error: { message: `Incorrect API key provided: ${KEY}`, type: "invalid_request_error" } },
      });
      const error = await failure(provider().embed(["a"]));
      expect(error.message).toContain("[redacted]");
      for (const text of messagesOfChain(error)) expect(text).not.toContain(KEY);
      expect(JSON.stringify(error.cause)).not.toContain(KEY);
    }
  });
});
