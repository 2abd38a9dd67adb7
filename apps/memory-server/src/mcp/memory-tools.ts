import type { Memory } from "@claw/memory-api";
import { isMemoryError } from "@claw/memory-api";
import {
  assertWritable,
  type MemoryToolContext,
  type MemoryToolDefinition,
  memoryForgetTool,
  memoryGetTool,
  memoryRecallTool,
  memoryStoreTool,
  memoryToolFields,
  recallForTurn,
  scopedNamespace,
  stableMemoryBlock,
  toolEntryOf,
} from "@claw/memory-lifecycle";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";

/** What a caller of the tools may touch; the server derives it from the request's token. */
export interface ToolScope {
  /** Namespaces the caller may use; undefined = every namespace. */
  namespaces?: readonly string[];
  readOnly?: boolean;
}

/** Options of createMemoryMcpServer: what the caller may touch and the version reported. */
export interface MemoryToolsOptions {
  scope?: ToolScope;
  /** Reported to clients in the initialize handshake. */
  version?: string;
  /** Answers memory_search; default `memory.recall` (the server passes its recall workers'). */
  recall?: Memory["recall"];
  /**
   * Who the tools' writes are recorded as in the entries' history (the server passes
   * "token:<name>" or "server"); default the memory's own actor.
   */
  actor?: string;
}

const namespaceField = memoryToolFields.namespace;

/**
 * An MCP server exposing the memory as tools — memory_search, memory_get, memory_store,
 * memory_forget, memory_history, memory_restore and memory_context — used by `claw-memory mcp`
 * (stdio) and the server's /mcp (streamable HTTP).
 * Every call is checked against the scope; failures come back as tool errors with the MemoryError
 * code, never as protocol errors.
 */
export function createMemoryMcpServer(memory: Memory, options: MemoryToolsOptions = {}): McpServer {
  const server = new McpServer({ name: "claw-memory", version: options.version ?? "0.0.0" });
  const scope = { ...options.scope, subject: "this token" };
  const recall = options.recall ?? ((query, recallOptions) => memory.recall(query, recallOptions));
  const actor = options.actor === undefined ? {} : { actor: options.actor };
  const context: MemoryToolContext = { scope, recall, ...actor };

  // The four tools the agent-framework adapters share are declared once, in memory-lifecycle.
  registerShared(server, "memory_search", memoryRecallTool, memory, context);
  registerShared(server, "memory_get", memoryGetTool, memory, context);
  registerShared(server, "memory_store", memoryStoreTool, memory, context);
  registerShared(server, "memory_forget", memoryForgetTool, memory, context);

  server.registerTool(
    "memory_history",
    {
      title: "History of a memory",
      description:
        "The versions of one memory, newest first: what it said after each change (create, update, forget, restore, …), when, and who made it. Also after it was forgotten.",
      inputSchema: {
        key: z.string().min(1),
        namespace: namespaceField,
        limit: z
          .number()
          .int()
          .min(1)
          .max(1000)
          .optional()
          .describe("At most this many versions (default all)."),
      },
      annotations: { readOnlyHint: true },
    },
    (args) =>
      run(async () => {
        const versions = await memory.history(args.key, {
          namespace: scopedNamespace(scope, args.namespace),
          limit: args.limit,
        });
        return { versions };
      }),
  );

  server.registerTool(
    "memory_restore",
    {
      title: "Restore a memory version",
      description:
        "Make an earlier version of a memory current again (as listed by memory_history), also after it was forgotten. A deletion (a version with deleted: true) cannot be restored; restore the version before it.",
      inputSchema: {
        key: z.string().min(1),
        version: z.number().int().min(1).describe("The version number from memory_history."),
        namespace: namespaceField,
      },
    },
    (args) =>
      run(async () => {
        assertWritable(scope);
        const entry = await memory.restore(args.key, args.version, {
          namespace: scopedNamespace(scope, args.namespace),
          ...actor,
        });
        return toolEntryOf(entry);
      }),
  );

  server.registerTool(
    "memory_context",
    {
      title: "Memory context for a message",
      description:
        "What to add to the prompt for a user message: the stable block of core memories and a [memory context] block of the memories most relevant to the message.",
      inputSchema: {
        message: z.string().min(1).describe("The user's message."),
        namespace: namespaceField,
        limit: z
          .number()
          .int()
          .min(1)
          .max(50)
          .optional()
          .describe("Recalled memories (default auto_recall_limit)."),
      },
      annotations: { readOnlyHint: true },
    },
    (args) =>
      run(async () => {
        const namespace = scopedNamespace(scope, args.namespace);
        const stable = await stableMemoryBlock(memory, { namespace });
        const recalled = await recallForTurn(memory, args.message, {
          namespace,
          limit: args.limit,
          exclude: stable.entries.map((e) => e.key),
          recall,
        });
        return {
          stable: { text: stable.text, hash: stable.hash },
          recall: { text: recalled.text, keys: recalled.entries.map((e) => e.key) },
        };
      }),
  );

  return server;
}

function registerShared<Shape extends z.ZodRawShape, Result>(
  server: McpServer,
  name: string,
  definition: MemoryToolDefinition<Shape, Result>,
  memory: Memory,
  context: MemoryToolContext,
): void {
  const annotations = definition.readOnly
    ? { readOnlyHint: true }
    : definition.destructive
      ? { destructiveHint: true }
      : undefined;
  server.registerTool<z.ZodObject<Shape>, z.ZodObject<Shape>>(
    name,
    {
      title: definition.title,
      description: definition.description,
      inputSchema: definition.inputSchema,
      ...(annotations === undefined ? {} : { annotations }),
    },
    // The SDK has validated the arguments against inputSchema before this runs.
    (args) => run(() => definition.execute(memory, args as z.output<z.ZodObject<Shape>>, context)),
  );
}

async function run(fn: () => Promise<unknown>): Promise<CallToolResult> {
  try {
    const value = await fn();
    return {
      content: [{ type: "text", text: JSON.stringify(value, null, 2) }],
      structuredContent: value as Record<string, unknown>,
    };
  } catch (error) {
    const code = isMemoryError(error) ? error.code : "INTERNAL";
    const message = isMemoryError(error) ? error.message : "the tool failed";
    return { isError: true, content: [{ type: "text", text: `${code}: ${message}` }] };
  }
}
