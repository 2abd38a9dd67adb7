// History, restore and expiry over HTTP: every write is recorded with the token that made it.
import type { InjectOptions } from "fastify";
import { describe, expect, it } from "vitest";
import {
  ADMIN,
  bearer,
  errorOf,
  READER,
  TENANT_A,
  TENANT_A_READER,
  testServer,
} from "../test-support/server-harness.js";

const admin = bearer(ADMIN);
const ndjson = { "content-type": "application/x-ndjson" };
const DAY_MS = 86_400_000;

interface Version {
  version: number;
  action: string;
  actor: string;
  current: boolean;
  deleted: boolean;
  content: string;
}

/** version, action, actor, current, deleted, content of each version, newest first. */
const rows = (response: { json(): unknown }) =>
  (response.json() as { versions: Version[] }).versions.map((v) => [
    v.version,
    v.action,
    v.actor,
    v.current,
    v.deleted,
    v.content,
  ]);

type App = Awaited<ReturnType<typeof testServer>>["app"];

function client(app: App, headers: Record<string, string>) {
  const send = (request: InjectOptions) =>
    app.inject({ ...request, headers: { ...headers, ...(request.headers as Record<string, string>) } });
  return {
    send,
    store: (payload: Record<string, unknown>) => send({ method: "POST", url: "/v1/memories", payload }),
    forget: (key: string, namespace = "default") =>
      send({ method: "DELETE", url: `/v1/memories/${key}?namespace=${namespace}` }),
    history: (key: string, query = "") => send({ method: "GET", url: `/v1/memories/${key}/history${query}` }),
    restore: (key: string, payload: Record<string, unknown>) =>
      send({ method: "POST", url: `/v1/memories/${key}/restore`, payload }),
  };
}

describe("GET /v1/memories/:key/history", () => {
  it("lists every version newest first, each with the token that made the change", async () => {
    const { app } = await testServer();
    const asAdmin = client(app, admin);
    const asTenant = client(app, bearer(TENANT_A));
    const created = await asAdmin.store({
      key: "plan",
      content: "first draft",
      namespace: "tenant-a",
      metadata: { project: "alpha" },
    });
    expect(created.statusCode).toBe(200);
    // The tenant's token lands in its own namespace; the same content twice adds no version.
    expect((await asTenant.store({ key: "plan", content: "second draft" })).statusCode).toBe(200);
    expect((await asTenant.store({ key: "plan", content: "second draft" })).statusCode).toBe(200);
    expect((await asAdmin.forget("plan", "tenant-a")).json()).toEqual({
      key: "plan",
      namespace: "tenant-a",
      removed: true,
    });

    const history = await asTenant.history("plan");
    expect(history.statusCode).toBe(200);
    expect(rows(history)).toEqual([
      [3, "forget", "token:admin", false, true, "second draft"],
      [2, "update", "token:tenant-a", false, false, "second draft"],
      [1, "create", "token:admin", false, false, "first draft"],
    ]);
    const [tombstone, , first] = history.json().versions;
    expect(first).toMatchObject({
      id: created.json().id,
      key: "plan",
      namespace: "tenant-a",
      category: "core",
      metadata: { project: "alpha" },
    });
    expect(tombstone.id).toBe(created.json().id);
    expect(Date.parse(tombstone.at)).toBeGreaterThanOrEqual(Date.parse(first.at));

    expect(rows(await asTenant.history("plan", "?limit=1"))).toEqual([
      [3, "forget", "token:admin", false, true, "second draft"],
    ]);
    // Reading history is a read: a read-only token may.
    const read = await client(app, bearer(READER)).history("plan", "?namespace=tenant-a");
    expect(read.statusCode).toBe(200);
    expect(read.json().versions).toHaveLength(3);
  });

  it("answers an empty list for a key that never existed, and 400 for a bad limit", async () => {
    const { app } = await testServer();
    const asAdmin = client(app, admin);
    const none = await asAdmin.history("never-stored");
    expect(none.statusCode).toBe(200);
    expect(none.json()).toEqual({ versions: [] });
    const bad = await asAdmin.history("k", "?limit=0");
    expect(bad.statusCode).toBe(400);
    expect(errorOf(bad)).toEqual({ code: "INVALID_INPUT", message: "limit: must be >= 1" });
    const unknown = await asAdmin.history("k", "?since=1d");
    expect(errorOf(unknown)).toEqual({ code: "INVALID_INPUT", message: "since: is not a known field" });
  });

  it("tells a key ending in /history (percent-encoded) from the history route", async () => {
    const { app, memory } = await testServer();
    await memory.store("notes/history", "a key with a slash");
    const asAdmin = client(app, admin);
    const got = await asAdmin.send({ method: "GET", url: "/v1/memories/notes%2Fhistory" });
    expect(got.json()).toMatchObject({ key: "notes/history", content: "a key with a slash" });
    expect(rows(await asAdmin.history("notes%2Fhistory"))).toEqual([
      [1, "create", "library", true, false, "a key with a slash"],
    ]);
    expect((await asAdmin.history("notes")).json()).toEqual({ versions: [] });
  });

  it("caps the number of versions at the server's list limit", async () => {
    const { app, memory } = await testServer({ limits: { listLimitMax: 2 } });
    for (const content of ["one", "two", "three"]) await memory.store("k", content);
    const history = await client(app, admin).history("k", "?limit=50");
    expect(rows(history).map(([version]) => version)).toEqual([3, 2]);
  });
});

describe("POST /v1/memories/:key/restore", () => {
  it("brings back a forgotten entry as it was in an earlier version, recorded as the caller", async () => {
    const { app, memory } = await testServer();
    const asAdmin = client(app, admin);
    await asAdmin.store({ key: "tz", content: "The user lives in Lisbon", metadata: { source: "chat" } });
    await asAdmin.store({ key: "tz", content: "The user lives in Porto" });
    await asAdmin.forget("tz");
    expect((await asAdmin.send({ method: "GET", url: "/v1/memories/tz" })).statusCode).toBe(404);

    const restored = await asAdmin.restore("tz", { version: 1 });
    expect(restored.statusCode).toBe(200);
    expect(restored.json()).toMatchObject({
      key: "tz",
      namespace: "default",
      content: "The user lives in Lisbon",
      metadata: { source: "chat" },
    });
    const got = await asAdmin.send({ method: "GET", url: "/v1/memories/tz" });
    expect(got.json()).toMatchObject({ content: "The user lives in Lisbon", metadata: { source: "chat" } });
    expect(rows(await asAdmin.history("tz"))).toEqual([
      [4, "restore", "token:admin", true, false, "The user lives in Lisbon"],
      [3, "forget", "token:admin", false, true, "The user lives in Porto"],
      [2, "update", "token:admin", false, false, "The user lives in Porto"],
      [1, "create", "token:admin", false, false, "The user lives in Lisbon"],
    ]);

    // A live entry goes back too: version 2, by the tenant's token in its own namespace.
    const asTenant = client(app, bearer(TENANT_A));
    await asTenant.store({ key: "editor", content: "Helix" });
    await asTenant.store({ key: "editor", content: "Vim" });
    const back = await asTenant.restore("editor", { version: 1 });
    expect(back.json()).toMatchObject({ namespace: "tenant-a", content: "Helix" });
    expect((await memory.get("editor", { namespace: "tenant-a" }))?.content).toBe("Helix");
    expect(rows(await asTenant.history("editor"))[0]).toEqual([
      3,
      "restore",
      "token:tenant-a",
      true,
      false,
      "Helix",
    ]);
  });

  it("refuses a tombstone (400 naming version), an unknown version (404) and a bad body (400)", async () => {
    const { app, memory } = await testServer();
    const asAdmin = client(app, admin);
    await asAdmin.store({ key: "k", content: "one" });
    await asAdmin.store({ key: "k", content: "two" });
    await asAdmin.forget("k");

    const tombstone = await asAdmin.restore("k", { version: 3 });
    expect(tombstone.statusCode).toBe(400);
    expect(errorOf(tombstone)).toEqual({
      code: "INVALID_INPUT",
      message: "version: version 3 records a deletion (forget); restore the version before it",
    });
    const unknown = await asAdmin.restore("k", { version: 9 });
    expect(unknown.statusCode).toBe(404);
    expect(errorOf(unknown)).toEqual({
      code: "NOT_FOUND",
      message: 'no version 9 of "k" is kept in namespace "default"',
    });
    const otherKey = await asAdmin.restore("never-stored", { version: 1 });
    expect(otherKey.statusCode).toBe(404);
    expect(errorOf(otherKey).code).toBe("NOT_FOUND");

    const bodies: Array<[Record<string, unknown>, string]> = [
      [{ version: 0 }, "version: must be >= 1"],
      [{ version: 1.5 }, "version: must be integer"],
      [{ version: "1" }, "version: must be integer"],
      [{}, "version: is required"],
      [{ version: 1, actor: "someone else" }, "actor: is not a known field"],
      [{ version: 1, namespace: "*" }, 'namespace: "*" is not allowed here'],
    ];
    for (const [payload, message] of bodies) {
      const response = await asAdmin.restore("k", payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(errorOf(response)).toEqual({ code: "INVALID_INPUT", message });
    }
    // Nothing was written by the refused calls.
    expect(await memory.get("k")).toBeNull();
    expect((await memory.history("k")).map((v) => v.version)).toEqual([3, 2, 1]);
  });

  it("keeps history and restore inside the token's namespaces, and restore away from read-only tokens", async () => {
    const { app, memory } = await testServer();
    await memory.store("secret", "tenant b secret v1", { namespace: "tenant-b" });
    await memory.store("secret", "tenant b secret v2", { namespace: "tenant-b" });
    const asTenant = client(app, bearer(TENANT_A));

    const history = await asTenant.history("secret", "?namespace=tenant-b");
    expect(history.statusCode).toBe(403);
    expect(errorOf(history)).toEqual({
      code: "FORBIDDEN",
      message: 'this token may not use the namespace "tenant-b"',
    });
    expect(history.body).not.toContain("tenant b secret");
    const restore = await asTenant.restore("secret", { version: 1, namespace: "tenant-b" });
    expect(restore.statusCode).toBe(403);
    expect(errorOf(restore).code).toBe("FORBIDDEN");
    // Without a namespace the tenant reads its own: B's key has no history there.
    expect((await asTenant.history("secret")).json()).toEqual({ versions: [] });
    expect((await asTenant.restore("secret", { version: 1 })).statusCode).toBe(404);

    for (const token of [READER, TENANT_A_READER]) {
      const refused = await client(app, bearer(token)).restore("secret", {
        version: 1,
        namespace: token === READER ? "tenant-b" : "tenant-a",
      });
      expect(refused.statusCode).toBe(403);
      expect(errorOf(refused)).toEqual({ code: "FORBIDDEN", message: "this token is read-only" });
    }
    expect((await memory.get("secret", { namespace: "tenant-b" }))?.content).toBe("tenant b secret v2");
    expect((await memory.history("secret", { namespace: "tenant-b" })).map((v) => v.action)).toEqual([
      "update",
      "create",
    ]);
  });
});

describe("who made a change", () => {
  it('records a server without tokens as "server"', async () => {
    const { app, memory } = await testServer({ tokens: [] });
    const open = client(app, { host: "127.0.0.1:7878" });
    expect((await open.store({ key: "k", content: "one" })).statusCode).toBe(200);
    await open.store({ key: "k", content: "two" });
    await open.forget("k");
    expect((await open.restore("k", { version: 2 })).json().content).toBe("two");
    const imported = await open.send({
      method: "POST",
      url: "/v1/import",
      headers: ndjson,
      payload: `${JSON.stringify({ key: "imported", content: "from a file" })}\n`,
    });
    expect(imported.json()).toMatchObject({ imported: 1 });
    expect((await memory.history("k")).map((v) => [v.version, v.action, v.actor])).toEqual([
      [4, "restore", "server"],
      [3, "forget", "server"],
      [2, "update", "server"],
      [1, "create", "server"],
    ]);
    expect((await memory.history("imported")).map((v) => [v.action, v.actor])).toEqual([
      ["create", "server"],
    ]);
  });

  it("records imports, a scoped session purge and purge-expired by the token", async () => {
    const { app, memory } = await testServer();
    const asTenant = client(app, bearer(TENANT_A));
    const lines = [
      { key: "turn", content: "a chat turn", sessionId: "s1" },
      { key: "stale", content: "expired already", expiresAt: "2020-01-01T00:00:00Z" },
      { key: "fresh", content: "expires later", expiresAt: "2099-01-01T00:00:00Z" },
    ];
    const imported = await asTenant.send({
      method: "POST",
      url: "/v1/import",
      headers: ndjson,
      payload: `${lines.map((line) => JSON.stringify(line)).join("\n")}\n`,
    });
    expect(imported.json()).toMatchObject({ imported: 3, rejected: 0 });
    const history = async (key: string) =>
      (await memory.history(key, { namespace: "tenant-a" })).map((v) => [v.version, v.action, v.actor]);
    expect(await history("turn")).toEqual([[1, "create", "token:tenant-a"]]);

    // A scoped token's session purge deletes within its namespaces, history included, as an
    // unscoped purgeSession does (privacy: a purge leaves no trace).
    const purged = await asTenant.send({ method: "DELETE", url: "/v1/sessions/s1" });
    expect(purged.json()).toEqual({ sessionId: "s1", removed: 1 });
    expect(await history("turn")).toEqual([]);

    // An expired entry is never returned; purge-expired deletes it, an admin-only route.
    expect((await asTenant.send({ method: "GET", url: "/v1/memories/stale" })).statusCode).toBe(404);
    const listed = await asTenant.send({ method: "GET", url: "/v1/memories" });
    expect(
      listed.json().entries.map((e: { key: string; expiresAt?: string }) => [e.key, e.expiresAt]),
    ).toEqual([["fresh", "2099-01-01T00:00:00.000Z"]]);
    const scoped = await asTenant.send({ method: "POST", url: "/v1/admin/purge-expired" });
    expect(scoped.statusCode).toBe(403);
    const expired = await app.inject({ method: "POST", url: "/v1/admin/purge-expired", headers: admin });
    expect(expired.statusCode).toBe(200);
    expect(expired.json()).toEqual({ removed: 1 });
    expect(await history("stale")).toEqual([
      [2, "expire", "token:admin"],
      [1, "create", "token:tenant-a"],
    ]);
    const again = await app.inject({
      method: "POST",
      url: "/v1/admin/purge-expired",
      headers: admin,
      payload: {},
    });
    expect(again.json()).toEqual({ removed: 0 });
    expect((await memory.get("fresh", { namespace: "tenant-a" }))?.content).toBe("expires later");
  });
});

describe("expiry on store", () => {
  it("stores expiresAt from a ttl or as given, and returns it on get and list", async () => {
    const { app } = await testServer();
    const asAdmin = client(app, admin);
    const week = await asAdmin.store({ key: "week", content: "for a week", ttl: "7d" });
    expect(week.statusCode).toBe(200);
    const stored = week.json();
    expect(Date.parse(stored.expiresAt) - Date.parse(stored.updatedAt)).toBe(7 * DAY_MS);
    const dated = await asAdmin.store({
      key: "dated",
      content: "until 2099",
      expiresAt: "2099-01-01T12:00:00+02:00",
    });
    expect(dated.json().expiresAt).toBe("2099-01-01T10:00:00.000Z");

    expect((await asAdmin.send({ method: "GET", url: "/v1/memories/week" })).json().expiresAt).toBe(
      stored.expiresAt,
    );
    const listed = await asAdmin.send({ method: "GET", url: "/v1/memories" });
    expect(
      Object.fromEntries(
        listed.json().entries.map((e: { key: string; expiresAt: string }) => [e.key, e.expiresAt]),
      ),
    ).toEqual({ week: stored.expiresAt, dated: "2099-01-01T10:00:00.000Z" });
    // A store without an expiry makes the entry permanent again (a store replaces the entry).
    const permanent = await asAdmin.store({ key: "week", content: "for good" });
    expect(permanent.json()).not.toHaveProperty("expiresAt");
    expect((await asAdmin.history("week")).json().versions[1].expiresAt).toBe(stored.expiresAt);
  });

  it("refuses a bad ttl or expiresAt with 400 naming the field, and writes nothing", async () => {
    const { app, memory } = await testServer();
    const asAdmin = client(app, admin);
    const cases: Array<[Record<string, unknown>, string | RegExp]> = [
      [{ ttl: "soon" }, 'ttl: expected an age such as "30m", "12h", "7d", "2w" or "1y"'],
      [{ ttl: "0d" }, /^ttl: expected an age .*longer than zero$/],
      [{ ttl: "" }, "ttl: must NOT have fewer than 1 characters"],
      [{ ttl: 7 }, "ttl: must be string"],
      [{ ttl: "7d", expiresAt: "2099-01-01T00:00:00Z" }, "ttl: give expiresAt or ttl, not both"],
      [{ expiresAt: "2020-01-01T00:00:00Z" }, /^expiresAt: is not in the future/],
      [{ expiresAt: "next week" }, 'expiresAt: must match format "date-time"'],
    ];
    for (const [fields, message] of cases) {
      const response = await asAdmin.store({ key: "k", content: "v", ...fields });
      expect(response.statusCode, JSON.stringify(fields)).toBe(400);
      expect(errorOf(response).code).toBe("INVALID_INPUT");
      if (typeof message === "string") expect(errorOf(response).message).toBe(message);
      else expect(errorOf(response).message).toMatch(message);
    }
    expect(await memory.get("k")).toBeNull();
    expect(await memory.history("k")).toEqual([]);
  });
});
