import { openTempSqliteMemory } from "@claw/memory-core/testkit";
import { generateText, stepCountIs } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";
import { memoryTools } from "./memory-tools.js";
import { answer, callTools, inSteps } from "./test-support/scripted-model.js";

describe("memoryTools given bad input by the model", () => {
  it("answers wrong types and a missing key with a tool error naming the field, inside generateText", async () => {
    const memory = openTempSqliteMemory();
    const mock = new MockLanguageModelV4({
      doGenerate: inSteps([
        () =>
          callTools([
            { id: "c1", name: "memory_store", input: { key: 42, content: "The user likes tea" } },
            { id: "c2", name: "memory_store", input: { content: "no key at all" } },
            { id: "c3", name: "memory_recall", input: { query: "tea", limit: "five" } },
          ]),
        () => answer("Sorry, I could not save that."),
      ]),
    });

    const result = await generateText({
      model: mock,
      tools: memoryTools(memory),
      stopWhen: stepCountIs(3),
      prompt: "Remember that I like tea",
    });

    expect(result.text).toBe("Sorry, I could not save that.");
    expect(result.steps[0]?.toolResults.map((r) => r.output)).toEqual([
      {
        error: {
          code: "INVALID_INPUT",
          message: "key: Invalid input: expected string, received number",
          field: "key",
        },
      },
      {
        error: {
          code: "INVALID_INPUT",
          message: "key: Invalid input: expected string, received undefined",
          field: "key",
        },
      },
      {
        error: {
          code: "INVALID_INPUT",
          message: "limit: Invalid input: expected number, received string",
          field: "limit",
        },
      },
    ]);
    // The model's next step received those errors as the tools' results.
    const secondPrompt = mock.doGenerateCalls[1]?.prompt ?? [];
    const toolMessage = secondPrompt.find((m) => m.role === "tool");
    expect(JSON.stringify(toolMessage?.content)).toContain('"field":"limit"');
    expect(await memory.count()).toBe(0);
  });

  it("reports a refused namespace and a missing memory the same way", async () => {
    const memory = openTempSqliteMemory();
    await memory.store("secret", "tenant b data", { namespace: "tenant-b" });
    const mock = new MockLanguageModelV4({
      doGenerate: inSteps([
        () =>
          callTools([
            { id: "c1", name: "memory_get", input: { key: "secret", namespace: "tenant-b" } },
            { id: "c2", name: "memory_forget", input: { key: "nothing-here" } },
          ]),
        () => answer("done"),
      ]),
    });
    const result = await generateText({
      model: mock,
      tools: memoryTools(memory, { namespace: "tenant-a" }),
      stopWhen: stepCountIs(3),
      prompt: "Read the secret",
    });
    expect(result.steps[0]?.toolResults.map((r) => r.output)).toEqual([
      { error: { code: "FORBIDDEN", message: 'this tool may not use the namespace "tenant-b"' } },
      { key: "nothing-here", removed: false },
    ]);
  });
});
