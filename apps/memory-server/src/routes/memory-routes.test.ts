import { describe, expect, it } from "vitest";
import { ADMIN, bearer, errorOf, TENANT_A, testServer } from "../test-support/server-harness.js";

const auth = bearer(ADMIN);

describe("entry routes", () => {
  it("stores, reads, lists, recalls and forgets an entry", async () => {
    const { app, memory } = await testServer();
    const stored = await app.inject({
      method: "POST",
      url: "/v1/memories",
      headers: auth,
      payload: {
        key: "tz",
        content: "The user lives in Lisbon",
        category: "core",
        sessionId: "s1",
        context: "Profile > Home",
      },
    });
    expect(stored.statusCode).toBe(200);
    expect(stored.json()).toMatchObject({
      key: "tz",
      content: "The user lives in Lisbon",
      namespace: "default",
    });
    expect((await memory.get("tz"))?.sessionId).toBe("s1");

    const got = await app.inject({ method: "GET", url: "/v1/memories/tz", headers: auth });
    expect(got.statusCode).toBe(200);
    expect(got.json().content).toBe("The user lives in Lisbon");
    expect(got.json().context).toBe("Profile > Home");

    const listed = await app.inject({ method: "GET", url: "/v1/memories?limit=10", headers: auth });
    expect(listed.json().entries.map((e: { key: string }) => e.key)).toEqual(["tz"]);
    expect(listed.json()).toMatchObject({ limit: 10, offset: 0 });

    const recalled = await app.inject({
      method: "POST",
      url: "/v1/recall",
      headers: auth,
      payload: { query: "where does the user live", limit: 3 },
    });
    expect(recalled.statusCode).toBe(200);
    expect(recalled.json().results.map((e: { key: string }) => e.key)).toEqual(["tz"]);
    expect(recalled.json().results[0].score).toBeGreaterThan(0);

    const forgot = await app.inject({ method: "DELETE", url: "/v1/memories/tz", headers: auth });
    expect(forgot.json()).toEqual({ key: "tz", namespace: "default", removed: true });
    expect(await memory.count()).toBe(0);
  });

  it("answers 404 NOT_FOUND for a missing key, on read and on delete", async () => {
    const { app } = await testServer();
    const got = await app.inject({ method: "GET", url: "/v1/memories/nope?namespace=x", headers: auth });
    expect(got.statusCode).toBe(404);
    expect(errorOf(got)).toEqual({
      code: "NOT_FOUND",
      message: 'no memory with key "nope" in namespace "x"',
    });
    const deleted = await app.inject({ method: "DELETE", url: "/v1/memories/nope", headers: auth });
    expect(deleted.statusCode).toBe(404);
  });

  it("explains each recalled entry's score when asked, and only then", async () => {
    const { app, memory } = await testServer();
    await memory.store("tz", "The user lives in Lisbon");
    await memory.store("pet", "The user has a dog");
    const recall = async (payload: object) =>
      (await app.inject({ method: "POST", url: "/v1/recall", headers: auth, payload })).json().results;
    const [plain] = await recall({ query: "where does the user live", mode: "bm25" });
    expect(plain.explain).toBeUndefined();
    const [hit] = await recall({ query: "where does the user live", mode: "bm25", explain: true });
    expect(hit.key).toBe("tz");
    expect(hit.explain).toMatchObject({ mode: "bm25", fusion: "bm25", coverage: 1, recency: 1 });
    expect(hit.explain.keyword).toMatchObject({ rank: 1, terms: ["user", "live"], neighbour: 0 });
    expect(hit.explain.relevance * hit.explain.recency).toBe(hit.score);
    expect(hit.score).toBe(plain.score);
    expect(hit.explain.length).toBeUndefined();
    // An entry longer than a passage (100 words): its words and the share of its keyword score it kept.
    await memory.store(
      "trip",
      `The user lives abroad for now. ${"Planning the route and the stops. ".repeat(40)}`,
    );
    const [, long] = await recall({ query: "where does the user live", mode: "bm25", explain: true });
    expect(long.key).toBe("trip");
    expect(long.explain.length).toEqual({ words: 246, factor: (100 / 246) ** 0.5 });
    const bad = await app.inject({
      method: "POST",
      url: "/v1/recall",
      headers: auth,
      payload: { query: "x", explain: "yes" },
    });
    expect(bad.statusCode).toBe(400);
    expect(errorOf(bad).message).toContain("explain");
  });

  it("caps the recall limit at the server's maximum", async () => {
    const { app, memory } = await testServer({ limits: { recallLimitMax: 3 } });
    for (let i = 0; i < 6; i++) await memory.store(`k${i}`, `shared topic number ${i}`);
    const response = await app.inject({
      method: "POST",
      url: "/v1/recall",
      headers: auth,
      payload: { query: "shared topic", limit: 500 },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().results).toHaveLength(3);
  });

  it("measures recency from the recall's `now` and scores in (0, 1]", async () => {
    const { app, memory } = await testServer();
    await memory.import([
      {
        key: "old",
        content: "orchid watering schedule",
        category: "daily",
        createdAt: "2025-01-01T00:00:00Z",
        updatedAt: "2025-01-01T00:00:00Z",
      },
    ]);
    const recallAt = async (now: string) =>
      (
        await app.inject({
          method: "POST",
          url: "/v1/recall",
          headers: auth,
          payload: { query: "orchid watering schedule", mode: "bm25", now },
        })
      ).json().results[0].score as number;
    // The only entry has every term: score 1 when fresh, the floor 0.95 of it a year later.
    expect(await recallAt("2025-01-01T00:00:00Z")).toBeCloseTo(1, 6);
    expect(await recallAt("2026-01-01T00:00:00Z")).toBeCloseTo(0.95, 3);
    const bad = await app.inject({
      method: "POST",
      url: "/v1/recall",
      headers: auth,
      payload: { query: "orchid", now: "next tuesday" },
    });
    expect(bad.statusCode).toBe(400);
  });

  it("purges a namespace and a session", async () => {
    const { app, memory } = await testServer();
    await memory.store("a", "one", { namespace: "n1", sessionId: "s" });
    await memory.store("b", "two", { namespace: "n1" });
    await memory.store("c", "three", { namespace: "n2", sessionId: "s" });
    const session = await app.inject({ method: "DELETE", url: "/v1/sessions/s", headers: auth });
    expect(session.json()).toEqual({ sessionId: "s", removed: 2 });
    const ns = await app.inject({ method: "DELETE", url: "/v1/namespaces/n1", headers: auth });
    expect(ns.json()).toEqual({ namespace: "n1", removed: 1 });
    expect(await memory.count()).toBe(0);
  });

  it("lets a scoped token purge a session only inside its own namespaces", async () => {
    const { app, memory } = await testServer();
    await memory.store("mine", "tenant a turn", { namespace: "tenant-a", sessionId: "s" });
    await memory.store("theirs", "tenant b turn", { namespace: "tenant-b", sessionId: "s" });
    const response = await app.inject({ method: "DELETE", url: "/v1/sessions/s", headers: bearer(TENANT_A) });
    expect(response.json()).toEqual({ sessionId: "s", removed: 1 });
    expect((await memory.get("theirs", { namespace: "tenant-b" }))?.content).toBe("tenant b turn");
  });

  it("stores into a scoped token's own namespace when none is named", async () => {
    const { app, memory } = await testServer();
    const response = await app.inject({
      method: "POST",
      url: "/v1/memories",
      headers: bearer(TENANT_A),
      payload: { key: "k", content: "v" },
    });
    expect(response.json().namespace).toBe("tenant-a");
    expect(await memory.count({ namespace: "tenant-a" })).toBe(1);
  });

  it("refuses unknown and missing fields with INVALID_INPUT naming the field, and writes nothing", async () => {
    const { app, memory } = await testServer();
    const typo = await app.inject({
      method: "POST",
      url: "/v1/memories",
      headers: auth,
      payload: { key: "k", content: "v", namspace: "x" },
    });
    expect(typo.statusCode).toBe(400);
    expect(errorOf(typo)).toEqual({ code: "INVALID_INPUT", message: "namspace: is not a known field" });
    const missing = await app.inject({
      method: "POST",
      url: "/v1/memories",
      headers: auth,
      payload: { key: "k" },
    });
    expect(errorOf(missing)).toEqual({ code: "INVALID_INPUT", message: "content: is required" });
    const badQuery = await app.inject({ method: "GET", url: "/v1/memories?limit=zero", headers: auth });
    expect(errorOf(badQuery)).toEqual({ code: "INVALID_INPUT", message: "limit: must be integer" });
    const badItem = await app.inject({
      method: "POST",
      url: "/v1/recall",
      headers: auth,
      payload: { query: "x", categories: ["core", ""] },
    });
    expect(errorOf(badItem).message).toBe("categories[1]: must NOT have fewer than 1 characters");
    const badDate = await app.inject({
      method: "POST",
      url: "/v1/recall",
      headers: auth,
      payload: { query: "x", since: "last tuesday" },
    });
    expect(errorOf(badDate)).toEqual({
      code: "INVALID_INPUT",
      message:
        'since: expected an age ("7d", "12h", "2w"), a date (2026-11-01) or an RFC 3339 timestamp, got "last tuesday"',
    });
    expect(await memory.count({ namespace: "*" })).toBe(0);
  });

  it("reports core's own validation the same way (an empty key after trimming)", async () => {
    const { app } = await testServer();
    const response = await app.inject({
      method: "POST",
      url: "/v1/memories",
      headers: auth,
      payload: { key: "   ", content: "v" },
    });
    expect(response.statusCode).toBe(400);
    expect(errorOf(response)).toEqual({ code: "INVALID_INPUT", message: "key: must not be empty" });
  });

  it("answers TIMEOUT (504) when an entry route outlives the request timeout", async () => {
    const { app, memory } = await testServer({ limits: { requestTimeoutMs: 30 } });
    let seen: AbortSignal | undefined;
    memory.recall = (_query, options) => {
      seen = options?.signal;
      return new Promise(() => {});
    };
    const response = await app.inject({
      method: "POST",
      url: "/v1/recall",
      headers: auth,
      payload: { query: "x" },
    });
    expect(response.statusCode).toBe(504);
    expect(errorOf(response)).toEqual({ code: "TIMEOUT", message: "the request took longer than 30 ms" });
    expect(seen?.aborted).toBe(true);
  });
});
