// The model the example runs without a key: ai/test's MockLanguageModelV4, answering by a few rules
// so the demo shows what memory does. "Remember that …" → it calls memory_store; after the tool's
// result → "Noted."; a question → the memory line in its system prompt sharing most words with it.
import { MockLanguageModelV4 } from "ai/test";

const usage = {
  inputTokens: { total: 0, noCache: 0, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 0, text: 0, reasoning: undefined },
};
const text = (value) => ({
  content: [{ type: "text", text: value }],
  finishReason: { unified: "stop", raw: "stop" },
  usage,
  warnings: [],
});

export function offlineModel() {
  return new MockLanguageModelV4({
    provider: "offline",
    modelId: "rules",
    doGenerate: async ({ prompt }) => {
      const last = prompt[prompt.length - 1];
      if (last?.role === "tool") return text("Noted.");
      const user =
        last?.role === "user" ? last.content.map((p) => (p.type === "text" ? p.text : "")).join(" ") : "";
      const fact = /^remember(?: that)? (.+?)\.?$/i.exec(user.trim())?.[1];
      if (fact) {
        const key = fact
          .toLowerCase()
          .replace(/[^a-z0-9]+/g, "_")
          .slice(0, 40);
        return {
          content: [
            {
              type: "tool-call",
              toolCallId: "call_1",
              toolName: "memory_store",
              input: JSON.stringify({ key, content: fact }),
            },
          ],
          finishReason: { unified: "tool-calls", raw: "tool_calls" },
          usage,
          warnings: [],
        };
      }
      const system = prompt
        .filter((m) => m.role === "system")
        .map((m) => m.content)
        .join("\n");
      const remembered = bestLine(system, user);
      return text(
        remembered ? `From what I remember: ${remembered}` : "I don't remember anything about that.",
      );
    },
  });
}

/** The `- …` line of the memory block sharing the most words with the question (the first on a tie). */
function bestLine(system, question) {
  const words = new Set(question.toLowerCase().match(/\p{L}+/gu) ?? []);
  let best = null;
  let bestScore = 0;
  for (const line of system.split("\n")) {
    if (!line.startsWith("- ")) continue;
    const content = line.slice(2).replace(/^\([^)]*\) /, "");
    const score = (content.toLowerCase().match(/\p{L}+/gu) ?? []).filter((w) => words.has(w)).length;
    if (score > bestScore) [best, bestScore] = [content, score];
  }
  return best;
}
