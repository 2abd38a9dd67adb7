// The memory tools a model calls, declared once, framework-neutral: name, description, zod input
// schema and what a call does. The MCP server registers them (memory_recall as memory_search) and
// the AI SDK and LangChain adapters wrap them through bindMemoryTools.
import type { Memory, Metadata, WhereFilter } from "@claw/memory-api";
import { MemoryError } from "@claw/memory-api";
import { z } from "zod";
import {
  actorOf,
  assertWritable,
  type MemoryToolContext,
  type MemoryToolEntry,
  scopedNamespace,
  toolEntryOf,
} from "./memory-tool-scope.js";

/** The names of the memory tools. */
export type MemoryToolName = "memory_store" | "memory_recall" | "memory_forget" | "memory_get";

/** One memory tool, independent of any framework: its name, description, input shape and how it runs. */
export interface MemoryToolDefinition<Shape extends z.ZodRawShape = z.ZodRawShape, Result = unknown> {
  readonly name: MemoryToolName;
  readonly title: string;
  readonly description: string;
  readonly inputSchema: z.ZodObject<Shape>;
  /** True for the tools that change nothing (memory_recall, memory_get). */
  readonly readOnly: boolean;
  readonly destructive: boolean;
  /** Runs a call whose arguments passed `inputSchema`; throws MemoryError on refusal. */
  execute(memory: Memory, args: z.output<z.ZodObject<Shape>>, context: MemoryToolContext): Promise<Result>;
}

/** The input fields more than one tool declares (the server's other MCP tools use them too). */
export const memoryToolFields = {
  namespace: z.string().min(1).max(256).optional().describe('Default "default".'),
  // Any object: what metadata and `where` may hold is validated by the memory, which answers
  // INVALID_INPUT naming the field (`where.priority.$gte`), as it does for every other interface.
  metadata: z
    .record(z.string(), z.unknown())
    .optional()
    .describe('Your own fields, a JSON object (at most 16 KB), e.g. {"project":"alpha","priority":2}.'),
  where: z
    .record(z.string(), z.unknown())
    .optional()
    .describe(
      'Only memories whose metadata matches, every condition holding: {"project":"alpha"} for equality, or {"priority":{"$gte":2}} with $eq, $ne, $in, $nin, $gt, $gte, $lt, $lte, $exists; a dotted field ("owner.team") reads a nested value.',
    ),
};

const recallShape = {
  query: z.string().describe("What to look for, in natural language."),
  limit: z.number().int().min(1).max(100).optional().describe("Default 5."),
  namespace: memoryToolFields.namespace,
  category: z.string().min(1).optional().describe("core, daily, conversation or a custom one."),
  where: memoryToolFields.where,
};

/** The MCP server's memory_search under the adapters' name. */
export const memoryRecallTool: MemoryToolDefinition<typeof recallShape, { results: MemoryToolEntry[] }> = {
  name: "memory_recall",
  title: "Search memory",
  description:
    "Find the stored memories most relevant to a query (hybrid keyword + semantic search), best first.",
  inputSchema: z.object(recallShape),
  readOnly: true,
  destructive: false,
  async execute(memory, args, context) {
    const namespace = scopedNamespace(context.scope, args.namespace);
    const recall = context.recall ?? ((query, options) => memory.recall(query, options));
    const hits = await recall(args.query, {
      limit: args.limit,
      namespace,
      categories: args.category === undefined ? undefined : [args.category],
      where: args.where as WhereFilter | undefined,
    });
    return { results: hits.map(toolEntryOf) };
  },
};

const getShape = { key: z.string().min(1), namespace: memoryToolFields.namespace };

/** `memory_get`: reads one memory by its key. */
export const memoryGetTool: MemoryToolDefinition<typeof getShape, MemoryToolEntry> = {
  name: "memory_get",
  title: "Get a memory",
  description: "Read one stored memory by its key.",
  inputSchema: z.object(getShape),
  readOnly: true,
  destructive: false,
  async execute(memory, args, context) {
    const entry = await memory.get(args.key, { namespace: scopedNamespace(context.scope, args.namespace) });
    if (entry === null) throw new MemoryError("NOT_FOUND", `no memory with key ${JSON.stringify(args.key)}`);
    return toolEntryOf(entry);
  },
};

const storeShape = {
  key: z.string().min(1).describe("A stable identifier, e.g. user_timezone."),
  content: z.string().min(1),
  category: z.string().min(1).optional().describe('Default "core".'),
  namespace: memoryToolFields.namespace,
  importance: z.number().min(0).max(1).optional(),
  metadata: memoryToolFields.metadata,
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
    .describe('How long the memory lasts, from now: "30m", "12h", "7d", "2w", "1y". Not with expiresAt.'),
};

/** `memory_store`: stores a memory under a key (replacing the one there). */
export const memoryStoreTool: MemoryToolDefinition<typeof storeShape, MemoryToolEntry> = {
  name: "memory_store",
  title: "Store a memory",
  description:
    "Save a fact, preference or decision for later (upsert by key). Use category core for lasting facts.",
  inputSchema: z.object(storeShape),
  readOnly: false,
  destructive: false,
  async execute(memory, args, context) {
    assertWritable(context.scope);
    const entry = await memory.store(args.key, args.content, {
      category: args.category,
      namespace: scopedNamespace(context.scope, args.namespace),
      importance: args.importance,
      metadata: args.metadata as Metadata | undefined,
      expiresAt: args.expiresAt,
      ttl: args.ttl,
      ...(context.sessionId === undefined ? {} : { sessionId: context.sessionId }),
      ...actorOf(context),
    });
    return toolEntryOf(entry);
  },
};

const forgetShape = { key: z.string().min(1), namespace: memoryToolFields.namespace };

/** `memory_forget`: deletes one memory by its key. */
export const memoryForgetTool: MemoryToolDefinition<typeof forgetShape, { key: string; removed: boolean }> = {
  name: "memory_forget",
  title: "Forget a memory",
  description: "Delete one stored memory by its key.",
  inputSchema: z.object(forgetShape),
  readOnly: false,
  destructive: true,
  async execute(memory, args, context) {
    assertWritable(context.scope);
    const removed = await memory.forget(args.key, {
      namespace: scopedNamespace(context.scope, args.namespace),
      ...actorOf(context),
    });
    return { key: args.key, removed };
  },
};

/** The four tools in the order the adapters list them. */
export const MEMORY_TOOLS: readonly MemoryToolDefinition[] = [
  memoryStoreTool,
  memoryRecallTool,
  memoryForgetTool,
  memoryGetTool,
] as readonly MemoryToolDefinition[];
