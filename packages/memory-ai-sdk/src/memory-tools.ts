// The memory tools as AI SDK tools: memory_store, memory_recall, memory_forget, memory_get, with the
// MCP tools' arguments and results (declared once, in @claw/memory-lifecycle).
import type { Memory } from "@claw/memory-api";
import { bindMemoryTools, type MemoryToolName, type MemoryToolsOptions } from "@claw/memory-lifecycle";
import { type Tool, tool } from "ai";

export type { MemoryToolName, MemoryToolsOptions };

/**
 * `{ memory_store, memory_recall, memory_forget, memory_get }` for `generateText({ tools })`;
 * `include` and `readOnly` choose which, `namespace` confines them to one namespace. Bad input
 * from the model and refused calls come back to it as the tool's result,
 * `{ error: { code, message, field } }`, never as an exception out of generateText.
 *
 * @example
 * ```ts
 * import { openai } from "@ai-sdk/openai";
 * import { memoryTools } from "@claw/memory-ai-sdk";
 * import { generateText, stepCountIs } from "ai";
 *
 * const { text } = await generateText({
 *   model: openai("gpt-4o-mini"),
 *   tools: memoryTools(memory, { namespace: "alice" }),
 *   stopWhen: stepCountIs(5),
 *   prompt: "Remember that I prefer window seats.",
 * });
 * ```
 */
export function memoryTools(memory: Memory, options: MemoryToolsOptions = {}): Record<string, Tool> {
  const tools: Record<string, Tool> = {};
  for (const bound of bindMemoryTools(memory, options)) {
    tools[bound.name] = tool({
      description: bound.description,
      // Accepts any input and shows the model the real schema: `call` validates, naming the field.
      inputSchema: bound.inputSchema,
      execute: (input: unknown) => bound.call(input),
    });
  }
  return tools;
}
