import type { Memory } from "@claw/memory-api";
import { openTempSqliteMemory } from "@claw/memory-core/testkit";
import { estimateTokens } from "@claw/memory-lifecycle";
import { generateText, wrapLanguageModel } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";
import { type MemoryMiddlewareOptions, memoryMiddleware } from "./memory-middleware.js";
import type { CallOptions } from "./model-types.js";
import { answer, systemPromptOf } from "./test-support/scripted-model.js";

/** A mock model that answers from its system prompt only, wrapped with the middleware. */
function modelWithMemory(memory: Memory, options: Omit<MemoryMiddlewareOptions, "memory"> = {}) {
  const mock = new MockLanguageModelV4({
    doGenerate: async (call: CallOptions) => {
      const system = systemPromptOf(call);
      const standup = /Standup moved to ([\d:]+)/.exec(system)?.[1];
      const cat = /cat is named (\w+)/.exec(system)?.[1];
      return answer(standup ? `At ${standup}.` : cat ? `Your cat is called ${cat}.` : "Noted.");
    },
  });
  return {
    mock,
    model: wrapLanguageModel({ model: mock, middleware: memoryMiddleware({ memory, ...options }) }),
  };
}

const SYSTEM = "You are a helpful assistant.";

describe("memoryMiddleware in generateText", () => {
  it("gives the model the core block and the recalled memory in its system prompt", async () => {
    const memory = openTempSqliteMemory();
    await memory.store("tz", "The user lives in Lisbon");
    await memory.import([
      {
        key: "standup",
        content: "Standup moved to 9:30",
        category: "daily",
        updatedAt: "2026-11-20T08:00:00Z",
      },
    ]);
    const { mock, model } = modelWithMemory(memory);

    const result = await generateText({ model, system: SYSTEM, prompt: "When is the standup?" });

    expect(result.text).toBe("At 9:30.");
    expect(systemPromptOf(mock.doGenerateCalls[0] as CallOptions)).toBe(
      [
        SYSTEM,
        "",
        "<claw-memory>",
        "## What you remember about the user",
        "- The user lives in Lisbon",
        "",
        "[memory context]",
        "- (daily 2026-11-20) Standup moved to 9:30",
        "</claw-memory>",
      ].join("\n"),
    );
  });

  it("stores the turn after the answer, in the session and namespace of the call", async () => {
    const memory = openTempSqliteMemory();
    const { model } = modelWithMemory(memory, { sessionId: "from-options" });

    await generateText({ model, prompt: "I had pasta for lunch" });
    const [daily] = await memory.list({ category: "daily" });
    expect(daily?.content).toBe("I had pasta for lunch\n→ Noted.");
    expect(daily?.sessionId).toBe("from-options");

    // providerOptions.clawMemory wins over the middleware's options, for that call.
    await generateText({
      model,
      prompt: "Important: my cat is named Miso",
      providerOptions: { clawMemory: { sessionId: "chat-7", namespace: "alice" } },
    });
    const alice = await memory.list({ namespace: "alice" });
    expect(alice.map((e) => [e.category, e.content, e.sessionId ?? null]).sort()).toEqual([
      ["core", "Important: my cat is named Miso", null],
      ["daily", "Important: my cat is named Miso\n→ Noted.", "chat-7"],
    ]);
    expect(await memory.count({ namespace: "default" })).toBe(1);
  });

  it("recalls from the namespace of the call", async () => {
    const memory = openTempSqliteMemory();
    await memory.store("pet", "The user's cat is named Miso", { namespace: "alice" });
    await memory.store("pet", "The user's cat is named Felix", { namespace: "bob" });
    const { model } = modelWithMemory(memory, { namespace: "bob" });

    expect((await generateText({ model, prompt: "What is my cat called?" })).text).toBe(
      "Your cat is called Felix.",
    );
    const alice = await generateText({
      model,
      prompt: "What is my cat called?",
      providerOptions: { clawMemory: { namespace: "alice" } },
    });
    expect(alice.text).toBe("Your cat is called Miso.");
  });

  it("replaces the block of an earlier turn instead of stacking a second one", async () => {
    const memory = openTempSqliteMemory();
    await memory.import([
      {
        key: "standup",
        content: "Standup moved to 9:30",
        category: "daily",
        updatedAt: "2026-11-20T08:00:00Z",
      },
      {
        key: "pet",
        content: "The user's cat is named Miso",
        category: "daily",
        updatedAt: "2026-11-21T08:00:00Z",
      },
    ]);
    const { mock, model } = modelWithMemory(memory, { autoSave: false });

    const first = await generateText({ model, system: SYSTEM, prompt: "When is the standup?" });
    const firstSystem = systemPromptOf(mock.doGenerateCalls[0] as CallOptions);
    expect(firstSystem).toContain("Standup moved to 9:30");

    // The caller keeps the system prompt the model saw (block included) and the conversation so far.
    const second = await generateText({
      model,
      system: firstSystem,
      messages: [
        { role: "user", content: "When is the standup?" },
        ...first.response.messages,
        { role: "user", content: "And what is my cat called?" },
      ],
    });
    expect(second.text).toBe("Your cat is called Miso.");
    const secondSystem = systemPromptOf(mock.doGenerateCalls[1] as CallOptions);
    expect(secondSystem.split("<claw-memory>").length - 1).toBe(1);
    expect(secondSystem.startsWith(`${SYSTEM}\n\n<claw-memory>\n[memory context]\n`)).toBe(true);
    expect(secondSystem).toContain("- (daily 2026-11-21) The user's cat is named Miso");
    expect(secondSystem).not.toContain("Standup");
  });

  it("keeps the block within the token budget", async () => {
    const memory = openTempSqliteMemory();
    for (let i = 0; i < 12; i++)
      await memory.store(`fact${i}`, `Project alpha fact ${i}: ${"detail ".repeat(20)}`);
    const { mock, model } = modelWithMemory(memory, { tokenBudget: 150, autoSave: false });

    await generateText({ model, prompt: "Tell me about project alpha" });
    const system = systemPromptOf(mock.doGenerateCalls[0] as CallOptions);
    expect(
      system.startsWith("<claw-memory>\n## What you remember about the user\n- Project alpha fact"),
    ).toBe(true);
    expect(estimateTokens(system)).toBeLessThanOrEqual(150);
    expect(system.split("\n- ").length - 1).toBeGreaterThanOrEqual(2);
  });

  it("leaves the prompt alone when there is nothing to remember and saves nothing when autoSave is off", async () => {
    const memory = openTempSqliteMemory();
    const { mock, model } = modelWithMemory(memory, { autoSave: false });
    await generateText({ model, system: SYSTEM, prompt: "Hello" });
    expect(systemPromptOf(mock.doGenerateCalls[0] as CallOptions)).toBe(SYSTEM);
    expect(await memory.count()).toBe(0);
  });
});
