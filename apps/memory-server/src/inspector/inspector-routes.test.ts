import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { ADMIN, bearer, testServer } from "../test-support/server-harness.js";

/** The inline <script> and <style> bodies of a page, and the CSP's hash sources. */
function inlineBlocks(html: string, tag: "script" | "style"): string[] {
  return [...html.matchAll(new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`, "g"))].map((m) => m[1] as string);
}
const hashSource = (text: string) => `'sha256-${createHash("sha256").update(text).digest("base64")}'`;

describe("GET / (web inspector)", () => {
  it("answers a static HTML page with a strict CSP and no caching, without a token", async () => {
    const { app } = await testServer();
    const response = await app.inject({ method: "GET", url: "/" });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("text/html; charset=utf-8");
    const csp = String(response.headers["content-security-policy"]);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain("unsafe-inline");
    expect(response.headers["cache-control"]).toBe("no-store");
    expect(response.headers["x-content-type-options"]).toBe("nosniff");
    expect(response.headers["referrer-policy"]).toBe("no-referrer");
    expect(response.body).toMatch(/^<!doctype html>/);
  });

  it("allows exactly its own inline script and style, by hash", async () => {
    const { app } = await testServer();
    const response = await app.inject({ method: "GET", url: "/" });
    const csp = String(response.headers["content-security-policy"]);
    const [script] = inlineBlocks(response.body, "script");
    const [style] = inlineBlocks(response.body, "style");
    expect(inlineBlocks(response.body, "script")).toHaveLength(1);
    expect(csp).toContain(`script-src ${hashSource(script as string)}`);
    expect(csp).toContain(`style-src ${hashSource(style as string)}`);
  });

  it("works offline: no absolute URL, no CDN, no external resource", async () => {
    const { app } = await testServer();
    const { body } = await app.inject({ method: "GET", url: "/" });
    expect(body).not.toMatch(/https?:\/\//i);
    expect(body).not.toMatch(/\bsrc=/i);
    expect(body).not.toMatch(/<link(?![^>]*href="data:,")/i);
  });

  it("keeps the token out of storage that outlives the tab and out of URLs, and user text out of innerHTML", async () => {
    const { app } = await testServer();
    const { body } = await app.inject({ method: "GET", url: "/" });
    expect(body).toContain("sessionStorage");
    expect(body).not.toContain("localStorage");
    expect(body).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write/);
    // No form field has a name, so no form could put the token (or anything else) in a URL.
    expect(body).not.toMatch(/<(input|textarea|select)[^>]*\sname=/i);
  });

  it("needs no token while the API it calls still does", async () => {
    const { app } = await testServer();
    expect((await app.inject({ method: "GET", url: "/" })).statusCode).toBe(200);
    expect((await app.inject({ method: "HEAD", url: "/" })).statusCode).toBe(200);
    for (const url of ["/v1/status", "/v1/memories?namespace=default", "/v1/export"]) {
      const response = await app.inject({ method: "GET", url });
      expect(response.statusCode, url).toBe(401);
      expect(response.json().error.code, url).toBe("UNAUTHORIZED");
    }
    expect((await app.inject({ method: "GET", url: "/v1/status", headers: bearer(ADMIN) })).statusCode).toBe(
      200,
    );
  });

  it("is a page, not an API operation: it stays out of /openapi.json but is counted in /metrics", async () => {
    const { app } = await testServer();
    await app.inject({ method: "GET", url: "/" });
    const doc = (await app.inject({ method: "GET", url: "/openapi.json", headers: bearer(ADMIN) })).json();
    expect(Object.keys(doc.paths)).not.toContain("/");
    const metrics = await app.inject({ method: "GET", url: "/metrics", headers: bearer(ADMIN) });
    expect(metrics.body).toMatch(/claw_memory_http_requests_total\{[^}]*route="\/"[^}]*status="200"/);
  });
});
