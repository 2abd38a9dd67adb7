import { openTempSqliteMemory } from "@claw/memory-core/testkit";
import { generateText, stepCountIs, wrapLanguageModel } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";
import { memoryMiddleware } from "./memory-middleware.js";
import { memoryTools } from "./memory-tools.js";
import type { CallOptions } from "./model-types.js";
import { answer, callTools, inSteps, systemPromptOf, toolResultsOf } from "./test-support/scripted-model.js";

describe("memoryTools in a generateText tool loop", () => {
  it("round-trips: the model stores with memory_store, then finds it with memory_recall", async () => {
    const memory = openTempSqliteMemory();
    const doGenerate = inSteps([
      () =>
        callTools([
          { id: "c1", name: "memory_store", input: { key: "pet", content: "The user's cat is named Miso" } },
        ]),
      () => callTools([{ id: "c2", name: "memory_recall", input: { query: "cat name" } }]),
      (call) => {
        const recalled = toolResultsOf(call).find((r) => r.toolName === "memory_recall")?.output as {
          value: { results: Array<{ content: string }> };
        };
        return answer(`I found: ${recalled.value.results[0]?.content}`);
      },
    ]);
    const mock = new MockLanguageModelV4({ doGenerate });
    const model = wrapLanguageModel({
      model: mock,
      middleware: memoryMiddleware({ memory, sessionId: "s1" }),
    });

    const result = await generateText({
      model,
      tools: memoryTools(memory, { sessionId: "s1", actor: "agent" }),
      stopWhen: stepCountIs(5),
      prompt: "Remember that my cat is called Miso, then check you did.",
    });

    expect(result.text).toBe("I found: The user's cat is named Miso");
    expect(result.steps.map((s) => s.toolResults.map((r) => r.toolName))).toEqual([
      ["memory_store"],
      ["memory_recall"],
      [],
    ]);
    expect(result.steps[0]?.toolResults[0]?.output).toMatchObject({
      key: "pet",
      content: "The user's cat is named Miso",
      category: "core",
      namespace: "default",
    });
    const stored = await memory.get("pet");
    expect([stored?.content, stored?.sessionId]).toEqual(["The user's cat is named Miso", "s1"]);
    expect((await memory.history("pet"))[0]?.actor).toBe("agent");

    // Each step carried one memory block; the one after memory_store already shows the new memory.
    const systems = mock.doGenerateCalls.map((c) => systemPromptOf(c as CallOptions));
    expect(systems.map((s) => s.split("<claw-memory>").length - 1)).toEqual([0, 1, 1]);
    expect(systems[1]).toContain("- The user's cat is named Miso");
    // The turn is saved once, after the answer, not after the steps that asked for tools.
    expect((await memory.list({ category: "daily" })).map((e) => e.content)).toEqual([
      "Remember that my cat is called Miso, then check you did.\n→ I found: The user's cat is named Miso",
    ]);
  });

  it("offers only the tools asked for, and no writes when read-only", async () => {
    const memory = openTempSqliteMemory();
    expect(Object.keys(memoryTools(memory))).toEqual([
      "memory_store",
      "memory_recall",
      "memory_forget",
      "memory_get",
    ]);
    expect(Object.keys(memoryTools(memory, { readOnly: true }))).toEqual(["memory_recall", "memory_get"]);
    expect(Object.keys(memoryTools(memory, { include: ["memory_recall"] }))).toEqual(["memory_recall"]);
  });

  it("shows the model the tools' real input schemas", async () => {
    const memory = openTempSqliteMemory();
    const mock = new MockLanguageModelV4({ doGenerate: answer("ok") });
    await generateText({ model: mock, tools: memoryTools(memory), prompt: "hi" });
    const tools = (mock.doGenerateCalls[0] as CallOptions).tools ?? [];
    const store = tools.find((t) => t.name === "memory_store") as {
      description?: string;
      inputSchema: { required?: string[]; properties?: Record<string, { type?: string }> };
    };
    expect(store.description).toMatch(/^Save a fact/);
    expect(store.inputSchema.required).toEqual(["key", "content"]);
    expect(store.inputSchema.properties?.importance?.type).toBe("number");
  });
});
