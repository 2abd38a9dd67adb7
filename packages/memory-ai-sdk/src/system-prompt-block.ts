// The memory block in a model call's system prompt: found by its markers, so each call replaces
// the block of an earlier turn instead of stacking a second one on it.
import type { Prompt, PromptMessage } from "./model-types.js";

/** The line that opens the memory block in the system prompt. */
export const MEMORY_BLOCK_START = "<claw-memory>";
/** The line that closes the memory block in the system prompt. */
export const MEMORY_BLOCK_END = "</claw-memory>";

const BLOCK = /(?:\n\n)?<claw-memory>\n[\s\S]*?\n<\/claw-memory>/g;

/** The block for a system prompt: the stable core memories, then the recalled ones; "" for none. */
export function renderMemoryBlock(parts: readonly string[]): string {
  const body = parts.filter((p) => p !== "").join("\n\n");
  return body === "" ? "" : `${MEMORY_BLOCK_START}\n${body}\n${MEMORY_BLOCK_END}`;
}

/** The text of the last user message (its text parts), or "" when there is none. */
export function lastUserText(prompt: Prompt): string {
  for (let i = prompt.length - 1; i >= 0; i--) {
    const message = prompt[i] as PromptMessage;
    if (message.role !== "user") continue;
    return message.content
      .map((part) => (part.type === "text" ? part.text : ""))
      .filter((text) => text !== "")
      .join("\n");
  }
  return "";
}

/**
 * The prompt with every earlier memory block removed and `block` appended to the first system
 * message (a system message of its own at the start when there is none). The user's system text
 * comes first and unchanged, so a provider's prompt cache still covers it.
 */
export function withMemoryBlock(prompt: Prompt, block: string): Prompt {
  const cleaned: Prompt = [];
  for (const message of prompt) {
    if (message.role !== "system" || !message.content.includes(MEMORY_BLOCK_START)) {
      cleaned.push(message);
      continue;
    }
    const content = message.content.replace(BLOCK, "");
    // A system message that held nothing but an earlier block goes with it.
    if (content.trim() !== "") cleaned.push({ ...message, content });
  }
  if (block === "") return cleaned;
  const first = cleaned.findIndex((m) => m.role === "system");
  if (first === -1) return [{ role: "system", content: block }, ...cleaned];
  const system = cleaned[first] as PromptMessage & { role: "system" };
  cleaned[first] = { ...system, content: `${system.content}\n\n${block}` };
  return cleaned;
}
