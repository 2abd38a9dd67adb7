// The memory tools as LangChain tools: memory_store, memory_recall, memory_forget, memory_get, with
// the MCP tools' arguments and results (declared once, in @claw/memory-lifecycle).
import type { Memory } from "@claw/memory-api";
import {
  bindMemoryTools,
  isMemoryToolError,
  type MemoryToolName,
  type MemoryToolsOptions,
} from "@claw/memory-lifecycle";
import { ToolMessage } from "@langchain/core/messages";
import { type DynamicStructuredTool, tool } from "@langchain/core/tools";
import type { JSONSchema } from "@langchain/core/utils/json_schema";

export type { MemoryToolName, MemoryToolsOptions };

/**
 * The memory tools for `model.bindTools(tools)` and a tool-calling agent; `include` and
 * `readOnly` choose them, `namespace` confines them to one namespace. Each returns its result as
 * JSON text. Bad input from the model and refused calls never throw: they come back as
 * `{ "error": { "code", "message", "field" } }`, in a ToolMessage with status "error" when the
 * tool is invoked with a tool call.
 */
export function memoryTools(memory: Memory, options: MemoryToolsOptions = {}): DynamicStructuredTool[] {
  return bindMemoryTools(memory, options).map((bound) =>
    tool(
      async (input: unknown, config) => {
        const output = await bound.call(input);
        const content = JSON.stringify(output);
        const toolCallId = config?.toolCall?.id;
        if (!isMemoryToolError(output) || toolCallId === undefined) return content;
        return new ToolMessage({ content, tool_call_id: toolCallId, name: bound.name, status: "error" });
      },
      {
        name: bound.name,
        description: bound.description,
        // Accepts any input and shows the model the real schema: `call` validates, naming the field.
        // LangChain renders it through its Standard JSON Schema side (toJsonSchema); tool()'s types
        // name only zod and plain JSON Schema, and checked as the latter it has no keyword that
        // refuses anything, so the model's input reaches `call` as sent (the tests hold it to that).
        schema: bound.inputSchema as unknown as JSONSchema,
      },
    ),
  );
}
