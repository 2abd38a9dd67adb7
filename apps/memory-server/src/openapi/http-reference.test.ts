import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ADMIN, bearer, testServer } from "../test-support/server-harness.js";
import { renderHttpReference } from "./http-reference.js";

const PAGE = join(import.meta.dirname, "..", "..", "..", "..", "docs", "http.md");

describe("docs/http.md", () => {
  it("is the page the server's OpenAPI document gives (run `pnpm docs:http` after changing a route)", async () => {
    const { app } = await testServer();
    const document = (
      await app.inject({ method: "GET", url: "/openapi.json", headers: bearer(ADMIN) })
    ).json();
    expect(readFileSync(PAGE, "utf8")).toBe(renderHttpReference(document));
  });

  it("lists every route with its access, and links each to its section", async () => {
    const { app } = await testServer();
    const document = (
      await app.inject({ method: "GET", url: "/openapi.json", headers: bearer(ADMIN) })
    ).json();
    const page = renderHttpReference(document);
    expect(page).toContain("| POST | [`/v1/recall`](#post-v1recall) | read |");
    expect(page).toContain("### POST /v1/recall");
    expect(page).toContain("| POST | [`/v1/admin/doctor`](#post-v1admindoctor) | admin |");
    expect(page).toMatch(/\| `query` \| string \| yes \|/);
  });
});
