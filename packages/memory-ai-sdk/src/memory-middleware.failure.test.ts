import type { Memory } from "@claw/memory-api";
import { MemoryError } from "@claw/memory-api";
import { openTempSqliteMemory, recordingLogger } from "@claw/memory-core/testkit";
import { generateText, streamText, wrapLanguageModel } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";
import { memoryMiddleware } from "./memory-middleware.js";
import type { CallOptions } from "./model-types.js";
import { answer, streamAnswer, systemPromptOf } from "./test-support/scripted-model.js";

/** The memory with every read and write failing, as a full disk or a closed database would. */
function failingMemory(memory: Memory): Memory {
  const fail = () => Promise.reject(new MemoryError("STORAGE", "database is locked"));
  return Object.create(memory, {
    recall: { value: fail },
    topCoreMemories: { value: fail },
    store: { value: fail },
  });
}

describe("memoryMiddleware with a failing memory", () => {
  it("lets generateText's answer through and logs what failed", async () => {
    const logger = recordingLogger();
    const mock = new MockLanguageModelV4({ doGenerate: answer("Hello there.") });
    const model = wrapLanguageModel({
      model: mock,
      middleware: memoryMiddleware({ memory: failingMemory(openTempSqliteMemory()), logger }),
    });

    const result = await generateText({ model, system: "Be kind.", prompt: "Important: say hello" });

    expect(result.text).toBe("Hello there.");
    expect(systemPromptOf(mock.doGenerateCalls[0] as CallOptions)).toBe("Be kind.");
    expect(logger.lines).toEqual([
      "warn: claw-memory: recall failed; the call goes on without memory",
      "warn: claw-memory: saving the turn failed; the answer is returned without it",
    ]);
  });

  it("lets streamText's answer through", async () => {
    const logger = recordingLogger();
    const model = wrapLanguageModel({
      model: new MockLanguageModelV4({ doStream: async () => streamAnswer("Streamed answer.") }),
      middleware: memoryMiddleware({ memory: failingMemory(openTempSqliteMemory()), logger }),
    });
    const result = streamText({ model, prompt: "Important: stream please" });
    expect(await result.text).toBe("Streamed answer.");
    expect(logger.lines.length).toBe(2);
  });

  it("lets the answer through when the memory is already closed", async () => {
    const memory = openTempSqliteMemory();
    await memory.close();
    const logger = recordingLogger();
    const model = wrapLanguageModel({
      model: new MockLanguageModelV4({ doGenerate: answer("Still here.") }),
      middleware: memoryMiddleware({ memory, logger }),
    });
    expect((await generateText({ model, prompt: "Are you there?" })).text).toBe("Still here.");
    expect(logger.lines.every((line) => line.startsWith("warn: claw-memory:"))).toBe(true);
  });

  it("refuses bad options when it is created", () => {
    const memory = openTempSqliteMemory();
    expect(() => memoryMiddleware({ memory, tokenBudget: 0 })).toThrow(
      "tokenBudget: expected a positive integer",
    );
    expect(() => memoryMiddleware({ memory, recallLimit: 1.5 })).toThrow(
      "recallLimit: expected a positive integer",
    );
    expect(() => memoryMiddleware({ memory: undefined as never })).toThrow("memory: expected a Memory");
  });
});
