// Property-based: hostile strings and values in every field and in the URL never make the server
// answer 5xx, and every error it answers has the API's shape.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ADMIN, bearer, testServer } from "../test-support/server-harness.js";

const auth = bearer(ADMIN);
const hostile = fc.oneof(
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 40 }),
  fc.constantFrom(
    '"',
    "*",
    "NEAR(a b)",
    "'; DROP TABLE memories; --",
    "%",
    "%00",
    "../../etc",
    "\u0000",
    "7d",
    "",
  ),
);
const anyValue = fc.oneof(
  { weight: 4, arbitrary: hostile },
  { weight: 1, arbitrary: fc.anything({ maxDepth: 2 }) },
);

function expectAnswer(response: { statusCode: number; json(): unknown }) {
  expect(response.statusCode).toBeLessThan(500);
  if (response.statusCode >= 400) {
    const error = (response.json() as { error: { code: unknown; message: unknown } }).error;
    expect(typeof error.code).toBe("string");
    expect(typeof error.message).toBe("string");
  }
}

describe("hostile requests (property)", () => {
  it("store and recall bodies", async () => {
    const { app } = await testServer({ limits: { rateLimit: false } });
    await fc.assert(
      fc.asyncProperty(
        fc.record(
          { key: anyValue, content: anyValue, namespace: anyValue, sessionId: anyValue, category: anyValue },
          { requiredKeys: [] },
        ),
        fc.record(
          {
            query: anyValue,
            since: anyValue,
            until: anyValue,
            namespace: anyValue,
            categories: anyValue,
            limit: anyValue,
          },
          { requiredKeys: [] },
        ),
        async (store, recall) => {
          expectAnswer(
            await app.inject({ method: "POST", url: "/v1/memories", headers: auth, payload: store }),
          );
          expectAnswer(
            await app.inject({ method: "POST", url: "/v1/recall", headers: auth, payload: recall }),
          );
        },
      ),
      { numRuns: 150 },
    );
  });

  it("keys and query strings in the URL", async () => {
    const { app } = await testServer({ limits: { rateLimit: false } });
    await fc.assert(
      fc.asyncProperty(hostile, hostile, fc.boolean(), async (key, namespace, encode) => {
        const segment = encode ? encodeURIComponent(key) : key.replace(/[?#/\s]/g, "_");
        const query = `?namespace=${encodeURIComponent(namespace)}`;
        for (const method of ["GET", "DELETE"] as const) {
          expectAnswer(await app.inject({ method, url: `/v1/memories/${segment}${query}`, headers: auth }));
        }
        expectAnswer(
          await app.inject({
            method: "GET",
            url: `/v1/memories${query}&since=${encodeURIComponent(key)}`,
            headers: auth,
          }),
        );
      }),
      { numRuns: 150 },
    );
  });
});
