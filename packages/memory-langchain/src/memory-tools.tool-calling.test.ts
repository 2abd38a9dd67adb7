import { openTempSqliteMemory } from "@claw/memory-core/testkit";
import { AIMessage, type BaseMessage, HumanMessage, type ToolMessage } from "@langchain/core/messages";
import type { DynamicStructuredTool } from "@langchain/core/tools";
import { toJsonSchema } from "@langchain/core/utils/json_schema";
import { describe, expect, it } from "vitest";
import { memoryTools } from "./memory-tools.js";
import { ScriptedToolCallingModel, type Step, toolCall } from "./test-support/scripted-chat-model.js";

/** The usual agent loop: call the model, run the tools it asks for, until it answers. */
async function runAgent(steps: Step[], tools: DynamicStructuredTool[], question: string) {
  const model = new ScriptedToolCallingModel(steps);
  const bound = model.bindTools(tools);
  const byName = new Map(tools.map((t) => [t.name, t]));
  const messages: BaseMessage[] = [new HumanMessage(question)];
  for (;;) {
    const reply = await bound.invoke(messages);
    messages.push(reply);
    if (!reply.tool_calls?.length) break;
    for (const call of reply.tool_calls) {
      const tool = byName.get(call.name);
      if (tool === undefined) throw new Error(`no tool ${call.name}`);
      messages.push((await tool.invoke({ ...call, type: "tool_call" })) as ToolMessage);
    }
  }
  return { model, messages, answer: messages[messages.length - 1]?.text };
}

const toolMessages = (messages: BaseMessage[]) => messages.filter((m): m is ToolMessage => m.type === "tool");

describe("memoryTools called by a tool-calling chat model", () => {
  it("round-trips: memory_store, then memory_recall finds what was stored", async () => {
    const memory = openTempSqliteMemory();
    const tools = memoryTools(memory, { sessionId: "s1", actor: "agent" });
    const { model, messages, answer } = await runAgent(
      [
        () => toolCall("c1", "memory_store", { key: "pet", content: "The user's cat is named Miso" }),
        () => toolCall("c2", "memory_recall", { query: "cat name" }),
        (received) => {
          const recalled = JSON.parse(String(received[received.length - 1]?.content)) as {
            results: Array<{ content: string }>;
          };
          return new AIMessage(`I found: ${recalled.results[0]?.content}`);
        },
      ],
      tools,
      "Remember my cat is Miso, then check.",
    );

    expect(answer).toBe("I found: The user's cat is named Miso");
    expect(model.boundTools.map((t) => t.name)).toEqual([
      "memory_store",
      "memory_recall",
      "memory_forget",
      "memory_get",
    ]);
    const [stored, recalled] = toolMessages(messages);
    expect([stored?.name, stored?.tool_call_id, stored?.status]).toEqual(["memory_store", "c1", "success"]);
    expect(JSON.parse(String(stored?.content))).toMatchObject({
      key: "pet",
      category: "core",
      namespace: "default",
    });
    expect(JSON.parse(String(recalled?.content)).results.map((r: { key: string }) => r.key)).toEqual(["pet"]);
    const entry = await memory.get("pet");
    expect([entry?.content, entry?.sessionId]).toEqual(["The user's cat is named Miso", "s1"]);
    expect((await memory.history("pet"))[0]?.actor).toBe("agent");
  });

  it("answers bad input with an error ToolMessage naming the field, and the loop goes on", async () => {
    const memory = openTempSqliteMemory();
    const { model, messages, answer } = await runAgent(
      [
        () => toolCall("c1", "memory_store", { key: 42, content: "The user likes tea" }),
        () => toolCall("c2", "memory_get", {}),
        () => new AIMessage("Sorry, that did not work."),
      ],
      memoryTools(memory),
      "Remember that I like tea",
    );

    expect(answer).toBe("Sorry, that did not work.");
    const errors = toolMessages(messages).map((m) => [m.status, JSON.parse(String(m.content))]);
    expect(errors).toEqual([
      [
        "error",
        {
          error: {
            code: "INVALID_INPUT",
            message: "key: Invalid input: expected string, received number",
            field: "key",
          },
        },
      ],
      [
        "error",
        {
          error: {
            code: "INVALID_INPUT",
            message: "key: Invalid input: expected string, received undefined",
            field: "key",
          },
        },
      ],
    ]);
    // The model's last call received both errors.
    expect(toolMessages(model.calls[2] ?? []).length).toBe(2);
    expect(await memory.count()).toBe(0);
  });

  it("returns JSON text when invoked with plain arguments, errors included", async () => {
    const memory = openTempSqliteMemory();
    const [store, , , get] = memoryTools(memory, { namespace: "team" });
    expect(JSON.parse(String(await store?.invoke({ key: "tz", content: "Lisbon" })))).toMatchObject({
      key: "tz",
      namespace: "team",
    });
    expect(JSON.parse(String(await get?.invoke({ key: "tz", namespace: "other" })))).toEqual({
      error: { code: "FORBIDDEN", message: 'this tool may not use the namespace "other"' },
    });
    expect(memoryTools(memory, { readOnly: true }).map((t) => t.name)).toEqual([
      "memory_recall",
      "memory_get",
    ]);
  });

  it("shows the model the real input schema", () => {
    const [store] = memoryTools(openTempSqliteMemory());
    const schema = toJsonSchema(store?.schema as never) as { required?: string[]; properties?: object };
    expect(schema.required).toEqual(["key", "content"]);
    expect(Object.keys(schema.properties ?? {})).toEqual([
      "key",
      "content",
      "category",
      "namespace",
      "importance",
      "metadata",
      "expiresAt",
      "ttl",
    ]);
  });
});
