// Graceful shutdown on a real socket: the in-flight request completes, new connections are
// refused, and the deferred embeddings are written before the database closes.
import { createHashingEmbeddingProvider, createMemory } from "@claw/memory-core";
import { describe, expect, it } from "vitest";
import { startServer } from "./start-server.js";
import { heldProvider } from "./test-support/held-provider.js";
import { tempWorkspace } from "./test-support/server-harness.js";

const KEY = "shutdown-test-key";

/** Whether new connections are refused within `ms` (the listener closes right after close() starts). */
async function refusedWithin(url: string, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    try {
      await fetch(`${url}/healthz`);
    } catch {
      return true;
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return false;
}

describe("graceful shutdown", () => {
  it("finishes the in-flight request, refuses new connections, and drains deferred embeddings", async () => {
    const workspaceDir = tempWorkspace();
    // Documents take 100 ms per batch, so deferred embeddings are still pending at shutdown.
    const slow = heldProvider({ documentDelayMs: 100 });
    const running = await startServer({
      workspaceDir,
      host: "127.0.0.1",
      port: 0,
      env: { CLAW_MEMORY_API_KEY: KEY },
      embeddings: slow.provider,
    });
    const headers = { authorization: `Bearer ${KEY}`, "content-type": "application/json" };
    for (const [key, content] of [
      ["lang", "The user prefers TypeScript"],
      ["city", "The user lives in Lisbon"],
      ["pet", "The user has a cat called Miso"],
    ]) {
      const stored = await fetch(`${running.url}/v1/memories`, {
        method: "POST",
        headers,
        body: JSON.stringify({ key, content }),
      });
      expect(stored.status).toBe(200);
    }
    // Deferred: the store calls answered before any vector was written.
    expect((await running.memory.status()).pendingEmbeddings).toBeGreaterThan(0);

    const inFlight = fetch(`${running.url}/v1/recall`, {
      method: "POST",
      headers,
      body: JSON.stringify({ query: "which city", mode: "embedding", limit: 3 }),
    });
    await slow.queried;
    const closed = running.close();
    expect(await refusedWithin(running.url, 2_000)).toBe(true);

    slow.release();
    const response = await inFlight;
    expect(response.status).toBe(200);
    const { results } = (await response.json()) as { results: Array<{ key: string }> };
    expect(results.map((r) => r.key)).toContain("city");
    await closed;
    expect(slow.documents.reduce((a, b) => a + b, 0)).toBe(3);

    // Reopened with the same provider fingerprint: every entry has its vector.
    const reopened = await createMemory({
      workspaceDir,
      embeddings: createHashingEmbeddingProvider({ dimensions: 16 }),
    });
    const status = await reopened.status();
    await reopened.close();
    expect(status.entries).toBe(3);
    expect(status.missingEmbeddings).toBe(0);
  });

  it("closes only once, however often close() is called", async () => {
    const running = await startServer({ workspaceDir: tempWorkspace(), port: 0, env: {}, embeddings: null });
    const first = running.close();
    expect(running.close()).toBe(first);
    await first;
    expect(await running.memory.healthCheck()).toBe(false);
  });
});
