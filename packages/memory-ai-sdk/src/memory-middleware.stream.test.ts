import { openTempSqliteMemory } from "@claw/memory-core/testkit";
import { streamText, wrapLanguageModel } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";
import { memoryMiddleware } from "./memory-middleware.js";
import type { CallOptions, StreamPart } from "./model-types.js";
import { streamAnswer, systemPromptOf } from "./test-support/scripted-model.js";

describe("memoryMiddleware in streamText", () => {
  it("recalls into the system prompt and stores the turn before the stream's end reaches the caller", async () => {
    const memory = openTempSqliteMemory();
    await memory.store("pet", "The user's cat is named Miso");
    const mock = new MockLanguageModelV4({
      doStream: async (call: CallOptions) => {
        const cat = /cat is named (\w+)/.exec(systemPromptOf(call))?.[1];
        return streamAnswer(cat ? `Your cat is called ${cat}.` : "I do not know.");
      },
    });
    const model = wrapLanguageModel({
      model: mock,
      middleware: memoryMiddleware({ memory, sessionId: "s1" }),
    });

    const result = streamText({ model, system: "Be brief.", prompt: "What is my cat called?" });
    let storedAtFinish: string[] | undefined;
    for await (const part of result.fullStream) {
      if (part.type === "finish")
        storedAtFinish = (await memory.list({ category: "daily" })).map((e) => e.content);
    }

    expect(await result.text).toBe("Your cat is called Miso.");
    expect(systemPromptOf(mock.doStreamCalls[0] as CallOptions)).toBe(
      "Be brief.\n\n<claw-memory>\n## What you remember about the user\n- The user's cat is named Miso\n</claw-memory>",
    );
    expect(storedAtFinish).toEqual(["What is my cat called?\n→ Your cat is called Miso."]);
    expect((await memory.list({ category: "daily" }))[0]?.sessionId).toBe("s1");
  });

  it("does not store a step that asks for a tool, nor a stream that fails", async () => {
    const memory = openTempSqliteMemory();
    const toolStep: StreamPart[] = [
      { type: "tool-call", toolCallId: "c1", toolName: "lookup", input: "{}" },
      {
        type: "finish",
        finishReason: { unified: "tool-calls", raw: "tool_calls" },
        usage: {
          inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
          outputTokens: { total: 1, text: 1, reasoning: undefined },
        },
      },
    ];
    const failing: StreamPart[] = [
      { type: "text-start", id: "t" },
      { type: "text-delta", id: "t", delta: "Half an ans" },
      { type: "error", error: new Error("connection reset") },
    ];
    const streams = [toolStep, failing];
    const mock = new MockLanguageModelV4({
      doStream: async () => ({ stream: ReadableStream.from(streams.shift() ?? []) }),
    });
    const model = wrapLanguageModel({ model: mock, middleware: memoryMiddleware({ memory }) });

    const withTool = streamText({ model, prompt: "Look something up" });
    await withTool.consumeStream();
    expect((await withTool.toolCalls).map((c) => c.toolName)).toEqual(["lookup"]);
    const broken = streamText({ model, prompt: "Answer me", onError: () => {} });
    await broken.consumeStream();
    expect(await memory.count()).toBe(0);
  });
});
