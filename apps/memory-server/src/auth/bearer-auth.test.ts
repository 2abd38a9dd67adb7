import { isMemoryError } from "@claw/memory-api";
import { describe, expect, it } from "vitest";
import { ADMIN, bearer, errorOf, TENANT_A, testServer } from "../test-support/server-harness.js";
import { TokenVerifier } from "./bearer-auth.js";
import { isLoopbackHost } from "./loopback.js";

describe("bearer tokens", () => {
  it("answers 401 with WWW-Authenticate for a missing, malformed or wrong token", async () => {
    const { app } = await testServer();
    const cases: Array<[Record<string, string>, string]> = [
      [{}, "missing bearer token"],
      [{ authorization: `Basic ${ADMIN}` }, "expected Authorization: Bearer <token>"],
      [{ authorization: "Bearer not-a-token" }, "invalid bearer token"],
      [{ authorization: `Bearer ${ADMIN}x` }, "invalid bearer token"],
    ];
    for (const [headers, message] of cases) {
      const response = await app.inject({ method: "GET", url: "/v1/memories", headers });
      expect(response.statusCode).toBe(401);
      expect(response.headers["www-authenticate"]).toBe('Bearer realm="claw-memory"');
      expect(errorOf(response)).toEqual({ code: "UNAUTHORIZED", message });
    }
  });

  it("asks for a token on unknown routes too, so they reveal nothing", async () => {
    const { app } = await testServer();
    const anonymous = await app.inject({ method: "GET", url: "/v1/nothing-here" });
    expect(anonymous.statusCode).toBe(401);
    const known = await app.inject({ method: "GET", url: "/v1/nothing-here", headers: bearer(ADMIN) });
    expect(known.statusCode).toBe(404);
    expect(errorOf(known)).toEqual({ code: "NOT_FOUND", message: "no route GET /v1/nothing-here" });
  });

  it("accepts the scheme in any case and keeps /healthz and /docs public", async () => {
    const { app } = await testServer();
    const lower = await app.inject({
      method: "GET",
      url: "/v1/status",
      headers: { authorization: `bearer ${ADMIN}` },
    });
    expect(lower.statusCode).toBe(200);
    expect((await app.inject({ method: "GET", url: "/healthz" })).json()).toEqual({
      status: "ok",
      backend: "sqlite",
      database: true,
    });
    expect((await app.inject({ method: "GET", url: "/docs" })).statusCode).toBe(200);
  });

  it("tells which token matched without keeping any token in the principal", () => {
    const verifier = new TokenVerifier([
      { token: "first-secret", name: "first" },
      { token: "second-secret", name: "second", namespaces: ["a"], readOnly: true },
    ]);
    expect(verifier.verify("Bearer second-secret")).toEqual({
      id: "second",
      namespaces: ["a"],
      readOnly: true,
    });
    expect(JSON.stringify(verifier.verify("Bearer first-secret"))).not.toContain("secret");
  });

  it("refuses an empty token or an empty namespace list in the configuration", () => {
    expect(() => new TokenVerifier([{ token: " " }])).toThrowError("tokens[0].token: must not be empty");
    const error = (() => {
      try {
        return new TokenVerifier([{ token: "t", namespaces: [] }]);
      } catch (e) {
        return e;
      }
    })();
    expect(isMemoryError(error, "INVALID_INPUT")).toBe(true);
  });
});

describe("open mode (no token configured)", () => {
  it("serves loopback Host headers without a token", async () => {
    const { app } = await testServer({ tokens: [] });
    const response = await app.inject({
      method: "POST",
      url: "/v1/memories",
      headers: { host: "127.0.0.1:7878" },
      payload: { key: "k", content: "v" },
    });
    expect(response.statusCode).toBe(200);
    const viaName = await app.inject({
      method: "GET",
      url: "/v1/memories/k",
      headers: { host: "localhost:7878" },
    });
    expect(viaName.json().content).toBe("v");
  });

  it("refuses a request addressed to another host name (DNS rebinding)", async () => {
    const { app } = await testServer({ tokens: [] });
    const response = await app.inject({
      method: "GET",
      url: "/v1/status",
      headers: { host: "evil.example:7878" },
    });
    expect(response.statusCode).toBe(403);
    expect(errorOf(response).code).toBe("FORBIDDEN");
  });

  it("ignores a token sent anyway and still scopes nothing", async () => {
    const { app } = await testServer({ tokens: [] });
    const response = await app.inject({ method: "GET", url: "/v1/status", headers: bearer(TENANT_A) });
    expect(response.statusCode).toBe(200);
  });
});

describe("isLoopbackHost", () => {
  it.each([
    ["127.0.0.1", true],
    ["127.1.2.3", true],
    ["localhost", true],
    ["::1", true],
    ["[::1]", true],
    ["::ffff:127.0.0.1", true],
    ["0.0.0.0", false],
    ["::", false],
    ["192.168.1.10", false],
    ["example.com", false],
    ["evil.localhost", false],
  ])("%s → %s", (host, expected) => {
    expect(isLoopbackHost(host)).toBe(expected);
  });
});
