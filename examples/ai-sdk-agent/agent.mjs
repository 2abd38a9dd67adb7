// An AI SDK agent with long-term memory; claw-memory is two calls:
//   memoryMiddleware — before each model call, the core memories and those recalled for the user's
//     message go into the system prompt; after the answer, the turn is saved;
//   memoryTools — memory_store, memory_recall, memory_forget and memory_get for the model to call.
import { memoryMiddleware, memoryTools } from "@claw/memory-ai-sdk";
import { createMemory } from "@claw/memory-core";
import { generateText, stepCountIs, wrapLanguageModel } from "ai";

const SYSTEM =
  "You are a helpful assistant with a long-term memory. When the user asks you to remember something, store it with memory_store.";

/**
 * @param {{ workspaceDir: string, model: import("ai").LanguageModel, logger?: import("@claw/memory-api").Logger }} options
 */
export async function createAgent({ workspaceDir, model, logger }) {
  const memory = await createMemory({ workspaceDir, embeddings: null, logger });
  let systemSeen = "";
  // Only for the demo's printout: keeps the system prompt the model received, memory block included.
  const spy = {
    specificationVersion: "v4",
    transformParams: async ({ params }) => {
      systemSeen = params.prompt
        .filter((m) => m.role === "system")
        .map((m) => m.content)
        .join("\n");
      return params;
    },
  };
  const withMemory = wrapLanguageModel({ model, middleware: [memoryMiddleware({ memory, logger }), spy] });
  const tools = memoryTools(memory);
  return {
    memory,
    /** One turn of a session: the answer, the tools the model called, the system prompt it saw last. */
    async chat(message, sessionId) {
      const result = await generateText({
        model: withMemory,
        system: SYSTEM,
        prompt: message,
        tools,
        stopWhen: stepCountIs(5),
        providerOptions: { clawMemory: { sessionId } },
      });
      const toolCalls = result.steps.flatMap((s) =>
        s.toolCalls.map((c) => `${c.toolName} ${JSON.stringify(c.input)}`),
      );
      return { text: result.text, toolCalls, system: systemSeen };
    },
    close: () => memory.close(),
  };
}
