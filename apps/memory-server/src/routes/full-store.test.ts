// A server over a full store (a `max_database_mb` quota reached): writes answer 503 STORAGE_FULL,
// reads and recall answer 200, and once a purge frees room the next write answers 200, all
// without a restart.
import { isMemoryError, type Memory } from "@claw/memory-api";
import { describe, expect, it } from "vitest";
import { ADMIN, bearer, errorOf, openMemory, testServer } from "../test-support/server-harness.js";

const auth = bearer(ADMIN);

/** Stores entries into `namespace` until the store refuses one; how many went in. */
async function fill(memory: Memory, namespace: string): Promise<number> {
  for (let i = 0; i < 100_000; i++) {
    try {
      await memory.store(`old-${i}`, `old entry ${i}, the walrus${i} ${"lorem ipsum dolor ".repeat(30)}`, {
        namespace,
      });
    } catch (error) {
      if (isMemoryError(error, "STORAGE_FULL")) return i;
      throw error;
    }
  }
  throw new Error("the store never filled up");
}

describe("a server over a full store", () => {
  it("answers writes 503 STORAGE_FULL, reads and recalls 200, and writes 200 again once room is freed", async () => {
    const memory = await openMemory({ config: { memory: { maxDatabaseMb: 1 } } });
    const { app } = await testServer({ memory });
    const stored = await fill(memory, "old");
    const write = { key: "note", content: `the narwhal ${"sings at dawn ".repeat(500)}`, namespace: "old" };

    const refused = await app.inject({ method: "POST", url: "/v1/memories", headers: auth, payload: write });
    const got = await app.inject({ method: "GET", url: "/v1/memories/old-3?namespace=old", headers: auth });
    const listed = await app.inject({
      method: "GET",
      url: "/v1/memories?namespace=old&limit=5",
      headers: auth,
    });
    const recalled = await app.inject({
      method: "POST",
      url: "/v1/recall",
      headers: auth,
      payload: { query: "walrus3", namespace: "old", limit: 1 },
    });
    const status = await app.inject({ method: "GET", url: "/v1/status", headers: auth });

    expect(stored).toBeGreaterThan(100);
    expect(refused.statusCode).toBe(503);
    expect(errorOf(refused).code).toBe("STORAGE_FULL");
    expect(got.statusCode).toBe(200);
    expect(got.json().key).toBe("old-3");
    expect(listed.statusCode).toBe(200);
    expect(listed.json().entries).toHaveLength(5);
    expect(recalled.statusCode).toBe(200);
    expect(recalled.json().results.map((e: { key: string }) => e.key)).toEqual(["old-3"]);
    expect(status.statusCode).toBe(200);
    expect(status.json().entries).toBe(stored);
    expect(status.json().corrupt).toBeUndefined();
    expect(await memory.get("note", { namespace: "old" })).toBeNull();

    const purged = await app.inject({ method: "DELETE", url: "/v1/namespaces/old", headers: auth });
    const accepted = await app.inject({ method: "POST", url: "/v1/memories", headers: auth, payload: write });

    expect(purged.statusCode).toBe(200);
    expect(purged.json().removed).toBe(stored);
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json()).toMatchObject({ key: "note", namespace: "old" });
    expect((await memory.get("note", { namespace: "old" }))?.content).toBe(write.content);
  });
});
