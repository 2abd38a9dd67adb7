// A chat agent with long-term memory, on the openai SDK and any OpenAI-compatible endpoint.
// Each turn: the stable core-memory block goes into the system prompt (so the provider's prompt
// cache keeps hitting), the memories relevant to the message go in as a [memory context] block,
// and after the reply the turn is saved (autosave: a daily note, a core memory when it matters).
// When the conversation nears the context window, one silent turn asks the model to write down
// what must survive the compaction (seed 004's memory flush).
import { createEmbeddingProvider } from "@claw/embeddings-openai";
import { createMemory } from "@claw/memory-core";
import {
  autoSaveTurn,
  estimateTokens,
  lifecyclePlugin,
  memoryFlushCheck,
  recallForTurn,
  stableMemoryBlock,
} from "@claw/memory-lifecycle";
import OpenAI from "openai";

const SYSTEM =
  "You are a helpful assistant with a long-term memory. Use what you remember; do not invent memories.";

/**
 * @param {{ workspaceDir: string, apiKey?: string, baseURL?: string, model?: string,
 *           embeddingModel?: string, contextWindow?: number, logger?: import("@claw/memory-api").Logger }} options
 */
export async function createAgent(options) {
  const apiKey = options.apiKey ?? "not-needed";
  const client = new OpenAI({ apiKey, baseURL: options.baseURL, maxRetries: 0 });
  const memory = await createMemory({
    workspaceDir: options.workspaceDir,
    embeddings: createEmbeddingProvider({
      provider: options.baseURL ? "custom" : "openai",
      apiKey,
      baseURL: options.baseURL,
      model: options.embeddingModel ?? "text-embedding-3-small",
    }),
    plugins: [lifecyclePlugin()],
    logger: options.logger,
  });
  const model = options.model ?? "gpt-4o-mini";
  const contextWindow = options.contextWindow ?? 128_000;
  /** @type {Array<{ role: "user" | "assistant", content: string }>} */
  const history = [];
  let compactions = 0;
  /** @type {number | undefined} */
  let lastFlush;

  async function complete(system, messages) {
    const completion = await client.chat.completions.create({
      model,
      messages: [{ role: "system", content: system }, ...messages],
    });
    return completion.choices[0]?.message?.content ?? "";
  }

  /** Keeps the history inside the window: the seed's flush first, then drop the oldest half. */
  async function maybeCompact(system) {
    const contextTokens = estimateTokens(system) + history.reduce((n, m) => n + estimateTokens(m.content), 0);
    const check = memoryFlushCheck({
      contextTokens,
      contextWindow,
      compactionCount: compactions,
      lastFlushCompactionCount: lastFlush,
    });
    if (check.flush) {
      lastFlush = compactions;
      const notes = await complete(`${system}\n\n${check.systemPrompt}`, [
        ...history,
        { role: "user", content: check.prompt },
      ]);
      if (notes.trim() !== "" && !notes.includes("NO_REPLY")) {
        await memory.store(`flush_${new Date().toISOString()}`, notes.trim(), { category: "core" });
      }
    }
    if (contextTokens > contextWindow * 0.9) {
      history.splice(0, Math.ceil(history.length / 2));
      compactions++;
    }
  }

  return {
    memory,
    /** One turn: recall, answer, remember. */
    async chat(message) {
      const stable = await stableMemoryBlock(memory);
      const recalled = await recallForTurn(memory, message, { exclude: stable.entries.map((e) => e.key) });
      const system = stable.text === "" ? SYSTEM : `${SYSTEM}\n\n${stable.text}`;
      await maybeCompact(system);
      const user = recalled.text === "" ? message : `${recalled.text}\n\n${message}`;
      const reply = await complete(system, [...history, { role: "user", content: user }]);
      history.push({ role: "user", content: message }, { role: "assistant", content: reply });
      await autoSaveTurn(memory, { user: message, assistant: reply });
      return reply;
    },
    async close() {
      await memory.close();
    },
  };
}
