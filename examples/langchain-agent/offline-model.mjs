// The chat model the example runs without a key: LangChain's FakeChatModel, answering by a few
// rules so the demo shows what memory does. "Remember that …" → it calls memory_store; after the
// tool's result → "Noted."; a question → the memory line in its system prompt sharing most words.
import { AIMessage } from "@langchain/core/messages";
import { FakeChatModel } from "@langchain/core/utils/testing";

export class OfflineChatModel extends FakeChatModel {
  /** Tools are announced to a real model; the rules here know the one they call. */
  bindTools() {
    return this;
  }

  async _generate(messages) {
    const message = reply(messages);
    return { generations: [{ message, text: message.text }] };
  }
}

function reply(messages) {
  const last = messages[messages.length - 1];
  if (last?.type === "tool") return new AIMessage("Noted.");
  const user = last?.type === "human" ? last.text : "";
  const fact = /^remember(?: that)? (.+?)\.?$/i.exec(user.trim())?.[1];
  if (fact) {
    const key = fact
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "_")
      .slice(0, 40);
    return new AIMessage({
      content: "",
      tool_calls: [{ id: "call_1", name: "memory_store", args: { key, content: fact }, type: "tool_call" }],
    });
  }
  const system = messages
    .filter((m) => m.type === "system")
    .map((m) => m.text)
    .join("\n");
  const remembered = bestLine(system, user);
  return new AIMessage(
    remembered ? `From what I remember: ${remembered}` : "I don't remember anything about that.",
  );
}

/** The `- …` line of the prompt sharing the most words with the question (the first on a tie). */
function bestLine(system, question) {
  const words = new Set(question.toLowerCase().match(/\p{L}+/gu) ?? []);
  let best = null;
  let bestScore = 0;
  for (const line of system.split("\n")) {
    if (!line.startsWith("- ")) continue;
    const content = line.slice(2);
    const score = (content.toLowerCase().match(/\p{L}+/gu) ?? []).filter((w) => words.has(w)).length;
    if (score > bestScore) [best, bestScore] = [content, score];
  }
  return best;
}
