import { isMemoryError } from "@claw/memory-api";
import { describe, expect, it, vi } from "vitest";
import { createOpenAITextGenerator } from "./index.js";
import { useFakeOpenAIServer } from "./test-support/fake-openai-server.js";

const fake = await useFakeOpenAIServer();

describe("text generator", () => {
  it("sends system and user messages to chat completions and returns the answer", async () => {
    fake.setChatReply(() => "a summary");
    const generator = createOpenAITextGenerator({ apiKey: "sk-test", baseURL: fake.baseURL });
    const text = await generator.generate({ system: "You curate memories.", prompt: "Summarise." });
    expect(text).toBe("a summary");
    const [request] = fake.requests;
    expect(request?.path).toBe("/v1/chat/completions");
    expect(request?.headers.authorization).toBe("Bearer sk-test");
    expect(request?.body).toEqual({
      model: "gpt-4o-mini",
      messages: [
        { role: "system", content: "You curate memories." },
        { role: "user", content: "Summarise." },
      ],
    });
  });

  it("asks for a JSON object in json mode", async () => {
    fake.setChatReply(() => '{"delete":[]}');
    const generator = createOpenAITextGenerator({
      apiKey: "sk-test",
      baseURL: fake.baseURL,
      model: "gpt-4.1",
    });
    const text = await generator.generate({ prompt: "Answer in JSON.", json: true });
    expect(JSON.parse(text)).toEqual({ delete: [] });
    expect(fake.requests[0]?.body).toEqual({
      model: "gpt-4.1",
      messages: [{ role: "user", content: "Answer in JSON." }],
      response_format: { type: "json_object" },
    });
  });

  it("shares the key and error handling of the embedding provider", async () => {
    vi.stubEnv("OPENAI_API_KEY", "");
    const keyless = createOpenAITextGenerator({ baseURL: fake.baseURL });
    await expect(keyless.generate({ prompt: "hi" })).rejects.toSatisfy((e) =>
      isMemoryError(e, "PROVIDER_AUTH"),
    );

    fake.failNext({ status: 429, headers: { "retry-after": "3" } });
    const generator = createOpenAITextGenerator({ apiKey: () => "sk-test", baseURL: fake.baseURL });
    await expect(generator.generate({ prompt: "hi" })).rejects.toMatchObject({
      code: "RATE_LIMITED",
      retryAfterSeconds: 3,
    });
  });
});
