import { captureProcessWarnings } from "@claw/memory-core/testkit";
import { describe, expect, it } from "vitest";
import { testServer } from "./test-support/server-harness.js";

describe("the server from build to close", () => {
  it("emits no process warning (fastify's deprecated top-level router options among them)", async () => {
    const warnings = captureProcessWarnings();
    const { app } = await testServer();
    await app.ready();
    const health = await app.inject({ method: "GET", url: "/healthz" });
    expect(health.statusCode).toBe(200);
    await app.close();
    // Node emits a warning on the next tick: let it arrive.
    await new Promise((resolve) => setImmediate(resolve));
    expect(warnings).toEqual([]);
  });
});
