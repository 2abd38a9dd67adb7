// A LangChain.js agent with long-term memory:
//   ClawMemoryRetriever — the memories relevant to the message, for the system prompt;
//   ClawChatMessageHistory — each session's messages, kept in the memory (RunnableWithMessageHistory);
//   memoryTools — memory_store, memory_recall, memory_forget and memory_get for the model to call.
import { createMemory } from "@claw/memory-core";
import { ClawChatMessageHistory, ClawMemoryRetriever, memoryTools } from "@claw/memory-langchain";
import { ChatPromptTemplate, MessagesPlaceholder } from "@langchain/core/prompts";
import { RunnableLambda, RunnableWithMessageHistory } from "@langchain/core/runnables";

const prompt = ChatPromptTemplate.fromMessages([
  [
    "system",
    "You are a helpful assistant with a long-term memory. When the user asks you to remember something, store it with memory_store.\n\nWhat you remember:\n{memories}",
  ],
  new MessagesPlaceholder("history"),
  ["human", "{input}"],
]);

/**
 * @param {{ workspaceDir: string, model: import("@langchain/core/language_models/chat_models").BaseChatModel,
 *           logger?: import("@claw/memory-api").Logger }} options
 */
export async function createAgent({ workspaceDir, model, logger }) {
  const memory = await createMemory({ workspaceDir, embeddings: null, logger });
  const retriever = new ClawMemoryRetriever({ memory, limit: 5 });
  const tools = memoryTools(memory);
  const toolsByName = new Map(tools.map((t) => [t.name, t]));
  const withTools = model.bindTools(tools);
  let trace = { memories: "", toolCalls: [] };

  // One answer: recall, then call the model until it stops asking for tools (at most 5 rounds).
  const answer = RunnableLambda.from(async ({ input, history }) => {
    const documents = await retriever.invoke(input);
    const memories = documents.map((d) => `- ${d.pageContent}`).join("\n") || "(nothing yet)";
    trace = { memories, toolCalls: [] };
    const messages = await prompt.formatMessages({ input, history, memories });
    for (let round = 0; round < 5; round++) {
      const reply = await withTools.invoke(messages);
      messages.push(reply);
      if (!reply.tool_calls?.length) return reply;
      for (const call of reply.tool_calls) {
        trace.toolCalls.push(`${call.name} ${JSON.stringify(call.args)}`);
        messages.push(await toolsByName.get(call.name).invoke(call));
      }
    }
    return messages[messages.length - 1];
  });
  const chain = new RunnableWithMessageHistory({
    runnable: answer,
    getMessageHistory: (sessionId) => new ClawChatMessageHistory({ memory, sessionId }),
    inputMessagesKey: "input",
    historyMessagesKey: "history",
  });

  return {
    memory,
    /** One turn of a session: the answer, the tools the model called, the memories it was given. */
    async chat(input, sessionId) {
      const reply = await chain.invoke({ input }, { configurable: { sessionId } });
      return { text: reply.text, ...trace };
    },
    close: () => memory.close(),
  };
}
