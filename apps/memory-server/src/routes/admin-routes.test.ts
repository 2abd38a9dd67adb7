import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { TextGenerator } from "@claw/memory-api";
import { createHashingEmbeddingProvider } from "@claw/memory-core";
import { describe, expect, it } from "vitest";
import {
  ADMIN,
  bearer,
  errorOf,
  openMemory,
  TENANT_A,
  tempWorkspace,
  testServer,
} from "../test-support/server-harness.js";

const admin = bearer(ADMIN);

describe("admin routes", () => {
  it("reindexes and backfills", async () => {
    const memory = await openMemory({ embeddings: createHashingEmbeddingProvider({ dimensions: 8 }) });
    await memory.store("a", "alpha");
    await memory.store("b", "beta");
    await memory.flush();
    const { app } = await testServer({ memory });
    const reindex = await app.inject({ method: "POST", url: "/v1/admin/reindex", headers: admin });
    expect(reindex.json()).toEqual({ entries: 2 });
    const backfill = await app.inject({
      method: "POST",
      url: "/v1/admin/backfill",
      headers: admin,
      payload: { batchSize: 10 },
    });
    expect(backfill.json()).toEqual({ embedded: 0 });
    expect((await memory.status()).missingEmbeddings).toBe(0);
  });

  it("runs hygiene when forced and writes the snapshot into the workspace", async () => {
    const workspaceDir = tempWorkspace();
    const memory = await openMemory({ workspaceDir });
    await memory.import([
      {
        key: "old",
        content: "an old chat line",
        category: "conversation",
        updatedAt: "2020-01-01T00:00:00.000Z",
      },
      { key: "fact", content: "The user is a pilot", category: "core" },
    ]);
    const { app } = await testServer({ memory });
    const hygiene = await app.inject({
      method: "POST",
      url: "/v1/admin/hygiene",
      headers: admin,
      payload: { force: true },
    });
    expect(hygiene.statusCode).toBe(200);
    expect(hygiene.json()).toMatchObject({
      ran: true,
      pruned: { conversation: 1 },
      deletedKeys: ["default/old"],
    });
    const snapshot = await app.inject({ method: "POST", url: "/v1/admin/snapshot", headers: admin });
    expect(snapshot.json()).toEqual({
      path: join(workspaceDir, "MEMORY_SNAPSHOT.md"),
      count: 1,
      written: true,
    });
    expect(readFileSync(join(workspaceDir, "MEMORY_SNAPSHOT.md"), "utf8")).toContain("The user is a pilot");
  });

  it("consolidates a turn into the caller's namespace", async () => {
    const { app, memory } = await testServer();
    const response = await app.inject({
      method: "POST",
      url: "/v1/admin/consolidate",
      headers: bearer(TENANT_A),
      payload: { user: "Important rule: we must always deploy on Tuesdays", sessionId: "s9" },
    });
    expect(response.statusCode).toBe(200);
    const result = response.json();
    expect(result.daily).toMatchObject({ category: "daily", namespace: "tenant-a", sessionId: "s9" });
    expect(result.core).toMatchObject({ category: "core", namespace: "tenant-a" });
    expect(result.superseded).toEqual([]);
    expect(await memory.count({ namespace: "tenant-a" })).toBe(2);
  });

  it("curates with the configured generator, and answers 503 without one", async () => {
    const generator: TextGenerator = { generate: async () => JSON.stringify({ delete: ["stale"] }) };
    const { app, memory } = await testServer({ generator });
    for (let i = 0; i < 10; i++) await memory.store(`d${i}`, `daily note ${i}`, { category: "daily" });
    await memory.store("stale", "an outdated daily note", { category: "daily" });
    const curated = await app.inject({
      method: "POST",
      url: "/v1/admin/curate",
      headers: admin,
      payload: { maxDeletions: 1 },
    });
    expect(curated.json()).toMatchObject({
      deleted: ["stale"],
      totalBefore: 11,
      totalAfter: 10,
      dryRun: false,
    });
    expect(await memory.get("stale")).toBeNull();

    const { app: bare } = await testServer();
    const unavailable = await bare.inject({ method: "POST", url: "/v1/admin/curate", headers: admin });
    expect(unavailable.statusCode).toBe(503);
    expect(errorOf(unavailable)).toEqual({
      code: "UNAVAILABLE",
      message:
        "the curator has no text generator: set curator_provider and its API key (e.g. OPENAI_API_KEY)",
    });
  });

  it("accepts no body at all on the routes whose fields are optional", async () => {
    const { app } = await testServer();
    const response = await app.inject({ method: "POST", url: "/v1/admin/hygiene", headers: admin });
    expect(response.statusCode).toBe(200);
    expect(response.json().ran).toBe(true);
  });
});
