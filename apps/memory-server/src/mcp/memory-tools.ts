import type { Memory, MemoryEntry, Metadata, WhereFilter } from "@claw/memory-api";
import { isMemoryError, MemoryError } from "@claw/memory-api";
import { recallForTurn, stableMemoryBlock } from "@claw/memory-lifecycle";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";

/** What a caller of the tools may touch; the server derives it from the request's token. */
export interface ToolScope {
  /** Namespaces the caller may use; undefined = every namespace. */
  namespaces?: readonly string[];
  readOnly?: boolean;
}

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

const namespaceField = z.string().min(1).max(256).optional().describe('Default "default".');
// Any object: what metadata and `where` may hold is validated by the memory, which answers
// INVALID_INPUT naming the field (`where.priority.$gte`), as it does for every other interface.
const metadataField = z
  .record(z.string(), z.unknown())
  .optional()
  .describe('Your own fields, a JSON object (at most 16 KB), e.g. {"project":"alpha","priority":2}.');
const whereField = z
  .record(z.string(), z.unknown())
  .optional()
  .describe(
    'Only memories whose metadata matches, every condition holding: {"project":"alpha"} for equality, or {"priority":{"$gte":2}} with $eq, $ne, $in, $nin, $gt, $gte, $lt, $lte, $exists; a dotted field ("owner.team") reads a nested value.',
  );

/**
 * An MCP server exposing the memory as tools — memory_search, memory_get, memory_store,
 * memory_forget, memory_history, memory_restore and memory_context — used by `claw-memory mcp`
 * (stdio) and the server's /mcp (streamable HTTP).
 * Every call is checked against the scope; failures come back as tool errors with the MemoryError
 * code, never as protocol errors.
 */
export function createMemoryMcpServer(memory: Memory, options: MemoryToolsOptions = {}): McpServer {
  const server = new McpServer({ name: "claw-memory", version: options.version ?? "0.0.0" });
  const scope = options.scope ?? {};
  const recall = options.recall ?? ((query, recallOptions) => memory.recall(query, recallOptions));
  const actor = options.actor === undefined ? {} : { actor: options.actor };

  server.registerTool(
    "memory_search",
    {
      title: "Search memory",
      description:
        "Find the stored memories most relevant to a query (hybrid keyword + semantic search), best first.",
      inputSchema: {
        query: z.string().describe("What to look for, in natural language."),
        limit: z.number().int().min(1).max(100).optional().describe("Default 5."),
        namespace: namespaceField,
        category: z.string().min(1).optional().describe("core, daily, conversation or a custom one."),
        where: whereField,
      },
      annotations: { readOnlyHint: true },
    },
    (args) =>
      run(async () => {
        const namespace = allowed(scope, args.namespace);
        const hits = await recall(args.query, {
          limit: args.limit,
          namespace,
          categories: args.category === undefined ? undefined : [args.category],
          where: args.where as WhereFilter | undefined,
        });
        return { results: hits.map(toResult) };
      }),
  );

  server.registerTool(
    "memory_get",
    {
      title: "Get a memory",
      description: "Read one stored memory by its key.",
      inputSchema: { key: z.string().min(1), namespace: namespaceField },
      annotations: { readOnlyHint: true },
    },
    (args) =>
      run(async () => {
        const entry = await memory.get(args.key, { namespace: allowed(scope, args.namespace) });
        if (entry === null)
          throw new MemoryError("NOT_FOUND", `no memory with key ${JSON.stringify(args.key)}`);
        return toResult(entry);
      }),
  );

  server.registerTool(
    "memory_store",
    {
      title: "Store a memory",
      description:
        "Save a fact, preference or decision for later (upsert by key). Use category core for lasting facts.",
      inputSchema: {
        key: z.string().min(1).describe("A stable identifier, e.g. user_timezone."),
        content: z.string().min(1),
        category: z.string().min(1).optional().describe('Default "core".'),
        namespace: namespaceField,
        importance: z.number().min(0).max(1).optional(),
        metadata: metadataField,
        expiresAt: z
          .string()
          .min(1)
          .max(64)
          .optional()
          .describe("When the memory expires (RFC 3339, in the future); after that it is never returned."),
        ttl: z
          .string()
          .min(1)
          .max(64)
          .optional()
          .describe(
            'How long the memory lasts, from now: "30m", "12h", "7d", "2w", "1y". Not with expiresAt.',
          ),
      },
    },
    (args) =>
      run(async () => {
        writable(scope);
        const entry = await memory.store(args.key, args.content, {
          category: args.category,
          namespace: allowed(scope, args.namespace),
          importance: args.importance,
          metadata: args.metadata as Metadata | undefined,
          expiresAt: args.expiresAt,
          ttl: args.ttl,
          ...actor,
        });
        return toResult(entry);
      }),
  );

  server.registerTool(
    "memory_forget",
    {
      title: "Forget a memory",
      description: "Delete one stored memory by its key.",
      inputSchema: { key: z.string().min(1), namespace: namespaceField },
      annotations: { destructiveHint: true },
    },
    (args) =>
      run(async () => {
        writable(scope);
        const removed = await memory.forget(args.key, {
          namespace: allowed(scope, args.namespace),
          ...actor,
        });
        return { key: args.key, removed };
      }),
  );

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
          namespace: allowed(scope, args.namespace),
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
        writable(scope);
        const entry = await memory.restore(args.key, args.version, {
          namespace: allowed(scope, args.namespace),
          ...actor,
        });
        return toResult(entry);
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
        const namespace = allowed(scope, args.namespace);
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

/** The namespace a call uses, refused when the scope does not include it. */
function allowed(scope: ToolScope, namespace: string | undefined): string {
  const wanted = namespace ?? scope.namespaces?.[0] ?? "default";
  if (scope.namespaces !== undefined && !scope.namespaces.includes(wanted)) {
    throw new MemoryError("FORBIDDEN", `this token may not use the namespace ${JSON.stringify(wanted)}`);
  }
  return wanted;
}

function writable(scope: ToolScope): void {
  if (scope.readOnly) throw new MemoryError("FORBIDDEN", "this token is read-only");
}

function toResult(entry: MemoryEntry) {
  return {
    key: entry.key,
    content: entry.content,
    category: entry.category,
    namespace: entry.namespace,
    ...(entry.score === undefined ? {} : { score: Number(entry.score.toFixed(6)) }),
    ...(entry.importance === undefined ? {} : { importance: entry.importance }),
    updatedAt: entry.updatedAt,
    ...(entry.source === undefined ? {} : { source: entry.source }),
    ...(entry.metadata === undefined ? {} : { metadata: entry.metadata }),
    ...(entry.expiresAt === undefined ? {} : { expiresAt: entry.expiresAt }),
  };
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
