// Metadata and `where` filters over HTTP: store, get, list, recall and export.
import { describe, expect, it } from "vitest";
import { ADMIN, bearer, errorOf, testServer } from "../test-support/server-harness.js";

const auth = bearer(ADMIN);
const keys = (entries: Array<{ key: string }>) => entries.map((e) => e.key).sort();

async function seeded() {
  const server = await testServer();
  const store = (key: string, content: string, metadata?: Record<string, unknown>) =>
    server.app.inject({
      method: "POST",
      url: "/v1/memories",
      headers: auth,
      payload: { key, content, metadata },
    });
  const first = await store("alpha-plan", "the alpha release plan ships in May", {
    project: "alpha",
    priority: 2,
    owner: { team: "core" },
  });
  expect(first.statusCode).toBe(200);
  expect(first.json().metadata).toEqual({ project: "alpha", priority: 2, owner: { team: "core" } });
  await store("beta-plan", "the beta release plan ships in June", { project: "beta", priority: 5 });
  await store("plain", "a release plan without metadata");
  return server;
}

describe("metadata over HTTP", () => {
  it("is stored and returned by get, list and recall; recall filters with where before the limit", async () => {
    const { app } = await seeded();
    const got = await app.inject({ method: "GET", url: "/v1/memories/alpha-plan", headers: auth });
    expect(got.json().metadata).toEqual({ project: "alpha", priority: 2, owner: { team: "core" } });
    const plain = await app.inject({ method: "GET", url: "/v1/memories/plain", headers: auth });
    expect("metadata" in plain.json()).toBe(false);

    const recall = (payload: Record<string, unknown>) =>
      app.inject({
        method: "POST",
        url: "/v1/recall",
        headers: auth,
        payload: { query: "release plan", ...payload },
      });
    const best = await recall({ limit: 1, where: { project: "beta" } });
    expect(best.statusCode).toBe(200);
    expect(best.json().results.map((e: { key: string }) => e.key)).toEqual(["beta-plan"]);
    expect(best.json().results[0].metadata).toEqual({ project: "beta", priority: 5 });
    expect(keys((await recall({ limit: 10, where: { priority: { $lt: 5 } } })).json().results)).toEqual([
      "alpha-plan",
    ]);
    expect(keys((await recall({ limit: 10, where: { "owner.team": "core" } })).json().results)).toEqual([
      "alpha-plan",
    ]);
    expect(
      keys((await recall({ limit: 10, where: { project: { $exists: false } } })).json().results),
    ).toEqual(["plain"]);
  });

  it("list and export take where as JSON in the query string", async () => {
    const { app } = await seeded();
    const where = encodeURIComponent(JSON.stringify({ project: { $in: ["alpha", "beta"] } }));
    const listed = await app.inject({ method: "GET", url: `/v1/memories?where=${where}`, headers: auth });
    expect(listed.statusCode).toBe(200);
    expect(keys(listed.json().entries)).toEqual(["alpha-plan", "beta-plan"]);
    const exported = await app.inject({
      method: "GET",
      url: `/v1/export?where=${encodeURIComponent('{"priority":{"$gte":5}}')}`,
      headers: auth,
    });
    expect(exported.statusCode).toBe(200);
    const lines = exported.body
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(lines.map((e) => [e.key, e.metadata])).toEqual([["beta-plan", { project: "beta", priority: 5 }]]);
  });

  it("bad metadata or filters are 400 INVALID_INPUT naming the path, and write nothing", async () => {
    const { app, memory } = await seeded();
    const stored = await app.inject({
      method: "POST",
      url: "/v1/memories",
      headers: auth,
      payload: {
        key: "bad",
        content: "x",
        metadata: { deep: { n: "ok", list: [1, { a: "b".repeat(20_000) }] } },
      },
    });
    expect(stored.statusCode).toBe(400);
    expect(errorOf(stored).code).toBe("INVALID_INPUT");
    expect(errorOf(stored).message).toMatch(/^metadata: is \d+ bytes as JSON, over the limit of 16384$/);
    expect(await memory.get("bad")).toBeNull();

    const recalled = await app.inject({
      method: "POST",
      url: "/v1/recall",
      headers: auth,
      payload: { query: "plan", where: { project: { $regex: "a.*" } } },
    });
    expect(recalled.statusCode).toBe(400);
    expect(errorOf(recalled).message).toMatch(/^where\.project\.\$regex: unknown operator/);

    const listed = await app.inject({
      method: "GET",
      url: "/v1/memories?where=project%3Dalpha",
      headers: auth,
    });
    expect(listed.statusCode).toBe(400);
    expect(errorOf(listed)).toEqual({
      code: "INVALID_INPUT",
      message: 'where: expected a JSON object, e.g. {"project":"alpha"}',
    });
  });
});
