import { isMemoryError } from "@claw/memory-api";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { createGeminiTextGenerator } from "./index.js";
import { type FakeGeminiServer, startFakeGeminiServer } from "./test-support/fake-gemini-server.js";

let server: FakeGeminiServer;

beforeEach(async () => {
  server = await startFakeGeminiServer({
    generate: (body) => {
      const config = body.generationConfig as { responseMimeType?: string } | undefined;
      return config?.responseMimeType === "application/json" ? '{"delete":["k1"]}' : "plain answer";
    },
  });
});

afterEach(async () => {
  await server.close();
});

describe("gemini text generator", () => {
  test("sends the prompt and system instruction to generateContent on the default model", async () => {
    const generator = createGeminiTextGenerator({ apiKey: "k", baseURL: server.url });
    const text = await generator.generate({ system: "You curate memories.", prompt: "What to delete?" });
    expect(text).toBe("plain answer");
    const request = server.requests[0];
    expect(request?.path).toBe("/v1beta/models/gemini-2.0-flash:generateContent");
    expect(request?.headers["x-goog-api-key"]).toBe("k");
    expect(request?.body).toMatchObject({
      contents: [{ role: "user", parts: [{ text: "What to delete?" }] }],
      systemInstruction: { parts: [{ text: "You curate memories." }] },
    });
    expect(request?.body.generationConfig ?? {}).not.toHaveProperty("responseMimeType");
  });

  test("json mode asks for application/json", async () => {
    const generator = createGeminiTextGenerator({
      apiKey: "k",
      baseURL: server.url,
      model: "gemini-2.5-flash",
    });
    const text = await generator.generate({ prompt: "List keys", json: true });
    expect(JSON.parse(text)).toEqual({ delete: ["k1"] });
    expect(server.requests[0]?.path).toBe("/v1beta/models/gemini-2.5-flash:generateContent");
    expect(server.requests[0]?.body.generationConfig).toEqual({ responseMimeType: "application/json" });
    expect(server.requests[0]?.body.systemInstruction).toBeUndefined();
  });

  test("errors map like the embedding provider's: 429 → RATE_LIMITED", async () => {
    server.failNext(1, { status: 429, headers: { "retry-after": "3" } });
    const generator = createGeminiTextGenerator({ apiKey: () => "k", baseURL: server.url });
    const error = await generator.generate({ prompt: "hi" }).catch((e: unknown) => e);
    expect(isMemoryError(error, "RATE_LIMITED")).toBe(true);
    expect((error as { retryAfterSeconds?: number }).retryAfterSeconds).toBe(3);
  });

  test("a missing key is PROVIDER_AUTH; an empty prompt is INVALID_INPUT", async () => {
    const noKey = createGeminiTextGenerator({ apiKey: () => "", baseURL: server.url });
    expect(
      isMemoryError(await noKey.generate({ prompt: "hi" }).catch((e: unknown) => e), "PROVIDER_AUTH"),
    ).toBe(true);
    const generator = createGeminiTextGenerator({ apiKey: "k", baseURL: server.url });
    const error = await generator.generate({ prompt: "  " }).catch((e: unknown) => e);
    expect(isMemoryError(error, "INVALID_INPUT")).toBe(true);
    expect(server.requests).toHaveLength(0);
  });

  test("an answer with no text is a PROVIDER error naming the reason", async () => {
    await server.close();
    server = await startFakeGeminiServer({ generate: () => "" });
    const generator = createGeminiTextGenerator({ apiKey: "k", baseURL: server.url });
    const error = await generator.generate({ prompt: "hi" }).catch((e: unknown) => e);
    expect(isMemoryError(error, "PROVIDER")).toBe(true);
    expect((error as Error).message).toContain("STOP");
  });
});
