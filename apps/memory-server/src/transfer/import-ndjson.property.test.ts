// Property-based: any NDJSON body imports its good lines and reports each bad one by line number,
// and the store then holds exactly the lines it did not report.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ADMIN, bearer, testServer } from "../test-support/server-harness.js";

const entry = fc.record(
  {
    key: fc.string({ unit: "binary", maxLength: 20 }),
    content: fc.oneof(fc.string({ unit: "grapheme", maxLength: 40 }), fc.integer(), fc.constant(null)),
    category: fc.oneof(fc.constantFrom("core", "daily", "conversation"), fc.string({ maxLength: 6 })),
    namespace: fc.oneof(fc.constant("default"), fc.string({ unit: "binary", maxLength: 8 })),
    importance: fc.oneof(fc.double({ noNaN: false }), fc.constant(0.5)),
  },
  { requiredKeys: ["key", "content"] },
);

const line = fc.oneof(
  { weight: 4, arbitrary: entry.map((e) => JSON.stringify(e)) },
  { weight: 1, arbitrary: fc.json({ maxDepth: 2 }) },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 30 }) },
  { weight: 1, arbitrary: fc.constantFrom("", "{", "[]", "null", '{"key":"k"}', '{"__proto__":{"x":1}}') },
);

describe("NDJSON import (property)", () => {
  it("reports bad lines and imports every other one", async () => {
    const { app, memory } = await testServer({ limits: { rateLimit: false } });
    await fc.assert(
      fc.asyncProperty(fc.array(line, { minLength: 1, maxLength: 12 }), async (generated) => {
        // One element, one line: a newline inside a generated string would start another.
        const lines = generated.map((text) => text.replace(/[\r\n]/g, " "));
        const all = await memory.export();
        await memory.forgetMany(all.map((e) => ({ key: e.key, namespace: e.namespace })));
        const response = await app.inject({
          method: "POST",
          url: "/v1/import",
          headers: { ...bearer(ADMIN), "content-type": "application/x-ndjson" },
          payload: lines.join("\n"),
        });
        // Bad lines are reported, never a failed request.
        expect(response.statusCode).toBe(200);
        const body = response.json();
        const bad = new Set<number>(body.errors.map((e: { line: number }) => e.line));
        for (const error of body.errors) expect(typeof error.code).toBe("string");
        // Every line that is not reported was imported: the store holds each (namespace, key) once.
        const pairs = new Set<string>();
        lines.forEach((text, i) => {
          if (text.trim() === "" || bad.has(i + 1)) return;
          const parsed = JSON.parse(text) as { key: string; namespace?: string };
          pairs.add(`${parsed.namespace ?? "default"}\u0000${parsed.key}`);
        });
        expect(body.imported).toBe(body.accepted);
        expect(await memory.count({ namespace: "*" })).toBe(pairs.size);
      }),
      { numRuns: 150 },
    );
  });
});
