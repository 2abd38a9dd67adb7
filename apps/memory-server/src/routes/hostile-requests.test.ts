import { describe, expect, it } from "vitest";
import { ADMIN, bearer, errorOf, testServer } from "../test-support/server-harness.js";

const auth = bearer(ADMIN);

/** Every error answer has the API's shape. */
function expectApiError(response: { statusCode: number; json(): unknown }, status: number, code: string) {
  expect(response.statusCode).toBe(status);
  const error = errorOf(response);
  expect(error.code).toBe(code);
  expect(typeof error.message).toBe("string");
}

describe("names up to their documented limits are addressable by URL", () => {
  it("a 4096-byte key, percent-encoded, is read and deleted", async () => {
    const { app } = await testServer();
    // 1024 four-byte characters: 4096 bytes, 12288 characters once percent-encoded.
    const key = "😀".repeat(1024);
    const stored = await app.inject({
      method: "POST",
      url: "/v1/memories",
      headers: auth,
      payload: { key, content: "long key" },
    });
    expect(stored.statusCode).toBe(200);
    const path = `/v1/memories/${encodeURIComponent(key)}`;
    const got = await app.inject({ method: "GET", url: path, headers: auth });
    expect(got.statusCode).toBe(200);
    expect(got.json().key).toBe(key);
    const deleted = await app.inject({ method: "DELETE", url: path, headers: auth });
    expect(deleted.json()).toMatchObject({ removed: true });
  });

  it("a 1024-character session id and a 256-character namespace are purged by URL", async () => {
    const { app, memory } = await testServer();
    const sessionId = "s".repeat(1024);
    const namespace = "n".repeat(256);
    await memory.store("a", "in a long session", { sessionId });
    await memory.store("b", "in a long namespace", { namespace });
    const session = await app.inject({ method: "DELETE", url: `/v1/sessions/${sessionId}`, headers: auth });
    expect(session.json()).toMatchObject({ removed: 1 });
    const ns = await app.inject({ method: "DELETE", url: `/v1/namespaces/${namespace}`, headers: auth });
    expect(ns.json()).toMatchObject({ removed: 1 });
  });

  it("a key past the limit answers in the API's error shape", async () => {
    const { app } = await testServer();
    const response = await app.inject({
      method: "GET",
      url: `/v1/memories/${"k".repeat(20_000)}`,
      headers: auth,
    });
    expect(response.statusCode).toBeGreaterThanOrEqual(400);
    expect(response.statusCode).toBeLessThan(500);
    expect(typeof errorOf(response).code).toBe("string");
  });
});

describe("framework errors have the API's shape", () => {
  it("a URL that cannot be decoded", async () => {
    const { app } = await testServer();
    expectApiError(
      await app.inject({ method: "GET", url: "/v1/memories/%E0%A4%A", headers: auth }),
      400,
      "INVALID_INPUT",
    );
  });

  it("a JSON body that does not parse", async () => {
    const { app } = await testServer();
    const response = await app.inject({
      method: "POST",
      url: "/v1/memories",
      headers: { ...auth, "content-type": "application/json" },
      payload: '{"key": "k",',
    });
    expectApiError(response, 400, "INVALID_INPUT");
  });

  it("an empty body on a route that needs one names what is missing", async () => {
    const { app } = await testServer();
    const response = await app.inject({
      method: "POST",
      url: "/v1/memories",
      headers: { ...auth, "content-type": "application/json" },
      payload: "",
    });
    expectApiError(response, 400, "INVALID_INPUT");
  });
});

describe("requests as clients send them", () => {
  it("serves a bodiless GET and DELETE that carry content-type: application/json", async () => {
    const { app, memory } = await testServer();
    await memory.store("k", "kept");
    const headers = { ...auth, "content-type": "application/json" };
    const got = await app.inject({ method: "GET", url: "/v1/memories/k", headers });
    expect(got.statusCode).toBe(200);
    expect(got.json().content).toBe("kept");
    const listed = await app.inject({ method: "GET", url: "/v1/memories", headers });
    expect(listed.statusCode).toBe(200);
    const deleted = await app.inject({ method: "DELETE", url: "/v1/memories/k", headers });
    expect(deleted.json()).toMatchObject({ removed: true });
  });

  it("refuses a number where a string belongs instead of storing it as text", async () => {
    const { app, memory } = await testServer();
    const response = await app.inject({
      method: "POST",
      url: "/v1/memories",
      headers: auth,
      payload: { key: "k", content: 5 },
    });
    expectApiError(response, 400, "INVALID_INPUT");
    expect(errorOf(response).message).toContain("content");
    expect(await memory.get("k")).toBeNull();
  });

  it("still reads numbers and lists out of the query string", async () => {
    const { app, memory } = await testServer();
    await memory.store("a", "one", { category: "core" });
    await memory.store("b", "two", { category: "daily" });
    const response = await app.inject({
      method: "GET",
      url: "/v1/memories?limit=1&category=daily",
      headers: auth,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().entries.map((e: { key: string }) => e.key)).toEqual(["b"]);
  });

  it("takes since as an age, as the CLI and the library do", async () => {
    const { app, memory } = await testServer();
    await memory.import([
      { key: "old", content: "standup notes", updatedAt: "2020-01-01T00:00:00.000Z" },
      { key: "new", content: "standup notes again" },
    ]);
    const response = await app.inject({
      method: "POST",
      url: "/v1/recall",
      headers: auth,
      payload: { query: "standup notes", since: "7d", mode: "bm25" },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().results.map((e: { key: string }) => e.key)).toEqual(["new"]);
    const bad = await app.inject({
      method: "POST",
      url: "/v1/recall",
      headers: auth,
      payload: { query: "standup", since: "soon" },
    });
    expectApiError(bad, 400, "INVALID_INPUT");
    expect(errorOf(bad).message.startsWith("since: ")).toBe(true);
  });

  it("refuses a key with a lone surrogate (it could not be read back by it)", async () => {
    const { app, memory } = await testServer();
    const response = await app.inject({
      method: "POST",
      url: "/v1/memories",
      headers: { ...auth, "content-type": "application/json" },
      // JSON.stringify escapes the lone surrogate ("\ud83d"): well-formed JSON, ill-formed text.
      payload: JSON.stringify({ key: "k\uD83D", content: "x" }),
    });
    expectApiError(response, 400, "INVALID_INPUT");
    expect(await memory.count({ namespace: "*" })).toBe(0);
  });
});
