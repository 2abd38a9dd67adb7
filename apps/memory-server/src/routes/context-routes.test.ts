import { describe, expect, it } from "vitest";
import { ADMIN, bearer, openMemory, TENANT_A, testServer } from "../test-support/server-harness.js";

describe("POST /v1/context", () => {
  it("returns the stable core block and the recall block for a message", async () => {
    const { app, memory } = await testServer();
    await memory.store("tz", "The user lives in Lisbon");
    await memory.store("standup", "Standup moved to 9:30", { category: "daily" });
    const response = await app.inject({
      method: "POST",
      url: "/v1/context",
      headers: bearer(ADMIN),
      payload: { message: "when is the standup?" },
    });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.stable).toMatchObject({
      text: "## What you remember about the user\n- The user lives in Lisbon",
      keys: ["tz"],
    });
    expect(body.recall.keys).toEqual(["standup"]);
    expect(body.recall.text).toMatch(
      /^\[memory context\]\n- \(daily \d{4}-\d{2}-\d{2}\) Standup moved to 9:30$/,
    );
  });

  it("recalls through the server's recall (its recall workers when it runs some)", async () => {
    const memory = await openMemory();
    const asked: string[] = [];
    const { app } = await testServer({
      memory,
      recall: (query, options) => {
        asked.push(query);
        return memory.recall(query, options);
      },
    });
    await memory.store("standup", "Standup moved to 9:30", { category: "daily" });
    const response = await app.inject({
      method: "POST",
      url: "/v1/context",
      headers: bearer(ADMIN),
      payload: { message: "when is the standup?" },
    });
    expect(response.json().recall.keys).toEqual(["standup"]);
    expect(asked).toEqual(["when is the standup?"]);
  });

  it("a scoped token gets its own namespace's memories", async () => {
    const { app, memory } = await testServer();
    await memory.store("tz", "The user lives in Lisbon");
    await memory.store("tz", "Tenant A lives in Porto", { namespace: "tenant-a" });
    const response = await app.inject({
      method: "POST",
      url: "/v1/context",
      headers: bearer(TENANT_A),
      payload: { message: "where?" },
    });
    expect(response.json().stable.text).toContain("Porto");
    expect(response.json().stable.text).not.toContain("Lisbon");
  });

  it("rejects an empty message naming the field", async () => {
    const { app } = await testServer();
    const response = await app.inject({
      method: "POST",
      url: "/v1/context",
      headers: bearer(ADMIN),
      payload: { message: "" },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toContain("message");
  });
});
