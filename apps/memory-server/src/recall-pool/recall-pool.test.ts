import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { EmbeddingProvider, Logger, Memory } from "@claw/memory-api";
import { isMemoryError, MemoryError, silentLogger } from "@claw/memory-api";
import { createHashingEmbeddingProvider, createMemory, parseConfig } from "@claw/memory-core";
import { describe, expect, it, onTestFinished } from "vitest";
import { tempWorkspace } from "../test-support/server-harness.js";
import { type RecallPool, startRecallPool } from "./recall-pool.js";

const config = parseConfig({ memory: { embeddingProvider: "none" } });

interface Setup {
  memory: Memory;
  pool: RecallPool;
  workspaceDir: string;
  warnings: string[];
}

async function setup(
  options: { size?: number; embeddings?: EmbeddingProvider | null; workerUrl?: URL } = {},
): Promise<Setup> {
  const workspaceDir = tempWorkspace();
  const warnings: string[] = [];
  const logger: Logger = { ...silentLogger, warn: (message) => warnings.push(message) };
  const memory = await createMemory({ workspaceDir, config, embeddings: options.embeddings ?? null, logger });
  await memory.import([
    { key: "tz", content: "The user lives in Lisbon and works in UTC", category: "core" },
    { key: "lang", content: "The user prefers TypeScript for backend services", category: "core" },
    { key: "pet", content: "The user has a dog named Rex", namespace: "home", sessionId: "s-1" },
    { key: "old", content: "The user lived in Porto", supersededBy: "tz" },
  ]);
  const pool = await startRecallPool({
    size: options.size ?? 2,
    workspaceDir,
    config,
    memory,
    logger,
    ...(options.workerUrl === undefined ? {} : { workerUrl: options.workerUrl }),
  });
  onTestFinished(async () => {
    await pool.close();
    await memory.close();
  });
  return { memory, pool, workspaceDir, warnings };
}

describe("recall workers", () => {
  it("answer recalls on worker threads with what the store itself answers", async () => {
    const { memory, pool, warnings } = await setup();
    expect(pool.size).toBe(2);
    const calls: [string, Parameters<Memory["recall"]>[1]][] = [
      ["where does the user live", {}],
      ["user", { limit: 2 }],
      ["dog", { namespace: "home", sessionId: "s-1" }],
      ["lived", { includeSuperseded: true, mode: "bm25" }],
      ["user", { namespace: "*", categories: ["core"], since: "2000-01-01T00:00:00Z" }],
      ["", { limit: 3 }],
      ["where does the user live", { explain: true }],
    ];
    for (const [query, options] of calls) {
      const expected = await memory.recall(query, options);
      expect(expected.length).toBeGreaterThan(0);
      if (options?.explain) expect(expected[0]?.explain?.keyword?.terms).toContain("user");
      expect(await pool.recall(query, options)).toEqual(expected);
    }
    // Several at once spread over both workers and come back to the right callers.
    const together = await Promise.all(calls.map(([query, options]) => pool.recall(query, options)));
    expect(together.map((hits) => hits.map((h) => h.key))).toEqual(
      await Promise.all(
        calls.map(async ([query, options]) => (await memory.recall(query, options)).map((h) => h.key)),
      ),
    );
    expect(warnings).toEqual([]);
  });

  it("see a write committed just before the recall, and a deletion", async () => {
    const { memory, pool } = await setup();
    expect((await pool.recall("standup")).map((h) => h.key)).toEqual([]);
    await memory.store("standup", "The standup moved to ten thirty");
    expect((await pool.recall("standup")).map((h) => h.key)).toEqual(["standup"]);
    await memory.forget("standup");
    expect((await pool.recall("standup")).map((h) => h.key)).toEqual([]);
  });

  it("see an entry rewritten after each of them recalled it", async () => {
    const { memory, pool } = await setup();
    // Four recalls at once reach both workers; a new query each round, so no worker answers from
    // its cache of results, only from the rows it kept.
    const contents = async (query: string) =>
      (await Promise.all([1, 2, 3, 4].map(() => pool.recall(query)))).map(
        (hits) => hits.find((h) => h.key === "lang")?.content,
      );
    expect(await contents("backend services")).toEqual(
      Array(4).fill("The user prefers TypeScript for backend services"),
    );
    await memory.store("lang", "The user prefers Rust for backend services");
    expect(await contents("services for the backend")).toEqual(
      Array(4).fill("The user prefers Rust for backend services"),
    );
  });

  it("report bad input as the store does: INVALID_INPUT naming the field", async () => {
    const { pool } = await setup();
    const error = await pool.recall("user", { limit: -1 }).catch((e: unknown) => e);
    expect(isMemoryError(error, "INVALID_INPUT")).toBe(true);
    expect((error as MemoryError).field).toBe("limit");
    expect((error as MemoryError).message).toMatch(/^limit: /);
  });

  it("embed queries with the server's provider, so hybrid recall matches the store's", async () => {
    const hashing = createHashingEmbeddingProvider({ dimensions: 64 });
    const purposes: string[] = [];
    const counted: EmbeddingProvider = {
      id: hashing.id,
      model: hashing.model,
      dimensions: hashing.dimensions,
      embed: (texts, options) => {
        purposes.push(...texts.map(() => options?.purpose ?? "document"));
        return hashing.embed(texts, options);
      },
    };
    const { memory, pool } = await setup({ embeddings: counted });
    await memory.flush();
    purposes.length = 0;
    const options = { mode: "embedding" as const, limit: 3 };
    const fromWorker = await pool.recall("Which city is home?", options);
    expect(purposes).toEqual(["query"]);
    expect(fromWorker).toEqual(await memory.recall("Which city is home?", options));
    expect(fromWorker.map((h) => h.key).sort()).toEqual(["lang", "tz"]);
  });

  it("stop waiting when the caller aborts", async () => {
    const { pool } = await setup({ size: 1 });
    const controller = new AbortController();
    const reason = new MemoryError("TIMEOUT", "too slow");
    const pending = pool.recall("user", { signal: controller.signal });
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
    // The worker is still serving.
    expect((await pool.recall("TypeScript")).map((h) => h.key)).toEqual(["lang"]);
  });

  it("fall back to the store, with one warning, when a worker cannot start", async () => {
    const missing = pathToFileURL(join(tempWorkspace(), "no-such-worker.js"));
    const { pool, warnings } = await setup({ size: 1, workerUrl: missing });
    expect(pool.size).toBe(0);
    expect(warnings).toEqual(["a recall worker did not start: recalls run on the server thread"]);
    expect((await pool.recall("TypeScript")).map((h) => h.key)).toEqual(["lang"]);
  });

  it("answer on the store the recalls of a worker that dies", async () => {
    // A worker that says it is ready, then dies on its first recall.
    const script = join(tempWorkspace(), "dying-worker.mjs");
    writeFileSync(
      script,
      `import { parentPort } from "node:worker_threads";
       parentPort.postMessage({ type: "ready" });
       parentPort.on("message", (m) => { if (m.type === "recall") process.exit(3); });`,
    );
    const { pool, warnings } = await setup({ size: 1, workerUrl: pathToFileURL(script) });
    expect(pool.size).toBe(1);
    expect((await pool.recall("TypeScript")).map((h) => h.key)).toEqual(["lang"]);
    expect(pool.size).toBe(0);
    expect(warnings).toEqual(["a recall worker stopped: its recalls run on the server thread"]);
  });

  it("close after the running recalls, and recall on the store afterwards", async () => {
    const { pool } = await setup();
    const running = pool.recall("dog", { namespace: "home" });
    await pool.close();
    expect((await running).map((h) => h.key)).toEqual(["pet"]);
    expect(pool.size).toBe(0);
    expect((await pool.recall("dog", { namespace: "home" })).map((h) => h.key)).toEqual(["pet"]);
  });
});
