import type { Memory } from "@claw/memory-api";
import { openTempSqliteMemory } from "@claw/memory-core/testkit";
import {
  AIMessage,
  type BaseMessage,
  HumanMessage,
  SystemMessage,
  ToolMessage,
} from "@langchain/core/messages";
import { ChatPromptTemplate, MessagesPlaceholder } from "@langchain/core/prompts";
import { RunnableWithMessageHistory } from "@langchain/core/runnables";
import { FakeChatModel } from "@langchain/core/utils/testing";
import { describe, expect, it } from "vitest";
import { ClawChatMessageHistory } from "./claw-chat-message-history.js";

const transcript = (messages: BaseMessage[]) => messages.map((m) => `${m.type}: ${m.text}`);

/** A chain whose fake model echoes every message it received, history included. */
function chatWithHistory(memory: Memory) {
  const prompt = ChatPromptTemplate.fromMessages([
    ["system", "Be brief."],
    new MessagesPlaceholder("history"),
    ["human", "{input}"],
  ]);
  return new RunnableWithMessageHistory({
    runnable: prompt.pipe(new FakeChatModel({})),
    getMessageHistory: (sessionId: string) => new ClawChatMessageHistory({ memory, sessionId }),
    inputMessagesKey: "input",
    historyMessagesKey: "history",
  });
}

describe("ClawChatMessageHistory", () => {
  it("keeps each session's history for RunnableWithMessageHistory, apart from the other's", async () => {
    const memory = openTempSqliteMemory();
    const chat = chatWithHistory(memory);
    const session = (sessionId: string) => ({ configurable: { sessionId } });

    await chat.invoke({ input: "My cat is Miso" }, session("alice"));
    await chat.invoke({ input: "My dog is Rex" }, session("bob"));
    const second = await chat.invoke({ input: "What is my cat called?" }, session("alice"));

    // The model saw alice's first turn (as the fake echoes it), and nothing of bob's.
    expect(second.text).toBe(
      ["Be brief.", "My cat is Miso", "Be brief.\nMy cat is Miso", "What is my cat called?"].join("\n"),
    );
    const alice = await new ClawChatMessageHistory({ memory, sessionId: "alice" }).getMessages();
    expect(transcript(alice)).toEqual([
      "human: My cat is Miso",
      "ai: Be brief.\nMy cat is Miso",
      "human: What is my cat called?",
      `ai: ${second.text}`,
    ]);
    const bob = await new ClawChatMessageHistory({ memory, sessionId: "bob" }).getMessages();
    expect(transcript(bob)).toEqual(["human: My dog is Rex", "ai: Be brief.\nMy dog is Rex"]);

    // Stored as conversation entries of the session, which recall finds.
    const entries = await memory.list({ category: "conversation", sessionId: "alice" });
    expect(entries.length).toBe(4);
    const [hit] = await memory.recall("cat Miso", { categories: ["conversation"] });
    expect(hit?.sessionId).toBe("alice");
  });

  it("gives back every kind of message as it was added, in order", async () => {
    const memory = openTempSqliteMemory();
    const history = new ClawChatMessageHistory({ memory, sessionId: "s1", namespace: "team" });
    await history.addMessages([
      new SystemMessage("You are a helper."),
      new HumanMessage({ content: [{ type: "text", text: "Store my timezone" }] }),
      new AIMessage({ content: "", tool_calls: [{ id: "c1", name: "memory_store", args: { key: "tz" } }] }),
      new ToolMessage({ content: '{"key":"tz"}', tool_call_id: "c1", name: "memory_store" }),
    ]);
    await history.addAIMessage("Done.");

    const messages = await new ClawChatMessageHistory({
      memory,
      sessionId: "s1",
      namespace: "team",
    }).getMessages();
    expect(messages.map((m) => m.type)).toEqual(["system", "human", "ai", "tool", "ai"]);
    expect(messages[1]?.content).toEqual([{ type: "text", text: "Store my timezone" }]);
    expect((messages[2] as AIMessage).tool_calls).toEqual([
      { id: "c1", name: "memory_store", args: { key: "tz" } },
    ]);
    expect(messages[2]?.content).toBe("");
    expect((messages[3] as ToolMessage).tool_call_id).toBe("c1");
    expect(messages[4]?.content).toBe("Done.");
    expect(await new ClawChatMessageHistory({ memory, sessionId: "s1" }).getMessages()).toEqual([]);
  });

  it("clear purges that session in its namespace and nothing else", async () => {
    const memory = openTempSqliteMemory();
    const one = new ClawChatMessageHistory({ memory, sessionId: "one" });
    await one.addUserMessage("first session");
    await memory.store("note", "A note of session one", { sessionId: "one" });
    await new ClawChatMessageHistory({ memory, sessionId: "two" }).addUserMessage("second session");
    await new ClawChatMessageHistory({ memory, sessionId: "one", namespace: "elsewhere" }).addUserMessage(
      "kept",
    );

    await one.clear();

    expect(await one.getMessages()).toEqual([]);
    expect(await memory.get("note")).toBeNull();
    expect(await memory.history("note")).toEqual([]);
    expect(transcript(await new ClawChatMessageHistory({ memory, sessionId: "two" }).getMessages())).toEqual([
      "human: second session",
    ]);
    expect(await memory.count({ namespace: "elsewhere" })).toBe(1);
  });

  it("refuses a missing session id when it is created", () => {
    const memory = openTempSqliteMemory();
    expect(() => new ClawChatMessageHistory({ memory, sessionId: "" })).toThrow(
      "sessionId: expected a non-empty string",
    );
  });
});
