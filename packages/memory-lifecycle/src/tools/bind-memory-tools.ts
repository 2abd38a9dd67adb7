// The memory tools bound to one memory and one caller, ready for an agent framework to wrap: each
// call validates its input itself and never throws, so a model's bad input or a refused call comes
// back to the model as `{ error: { code, message, field } }` instead of an exception the
// framework would raise out of its generate call.
import type { Logger, Memory } from "@claw/memory-api";
import { isMemoryError, MemoryError, silentLogger } from "@claw/memory-api";
import { z } from "zod";
import { MEMORY_TOOLS, type MemoryToolDefinition, type MemoryToolName } from "./memory-tool-definitions.js";
import type { MemoryToolContext } from "./memory-tool-scope.js";

/**
 * Options of bindMemoryTools (and the adapters' memoryTools): which tools, read-only, and the namespace and
 * session they use.
 */
export interface MemoryToolsOptions {
  /** Confine the tools to this namespace (a call naming another one is refused); default any. */
  namespace?: string;
  /** The session memory_store tags new entries with. */
  sessionId?: string;
  /** Who the tools' writes are recorded as in the entries' history; default the memory's own. */
  actor?: string;
  /** Only these tools; default all four. */
  include?: readonly MemoryToolName[];
  /** Leave out the tools that write (memory_store, memory_forget). */
  readOnly?: boolean;
  /** Where a tool failure that is not a MemoryError is logged. */
  logger?: Logger;
}

/** What a tool reports instead of throwing: the MemoryError code, its message and the field. */
export type MemoryToolError = { error: { code: string; message: string; field?: string } };

/**
 * A Standard Schema (standardschema.dev) that accepts every value and describes the tool's real
 * input in JSON Schema: the framework shows the model the real schema but leaves validation to
 * `call`, which answers bad input with a MemoryToolError rather than an exception.
 */
export interface MemoryToolInputSchema {
  readonly "~standard": {
    readonly version: 1;
    readonly vendor: string;
    /** Passes the input through; `call` validates it. */
    validate(value: unknown): { value: unknown };
    readonly jsonSchema: {
      /** The tool's input as JSON Schema. */
      input(options: { target: string }): Record<string, unknown>;
      /** The same JSON Schema as `input`. */
      output(options: { target: string }): Record<string, unknown>;
    };
  };
}

/** One memory tool bound to a memory, ready to hand to an agent framework. */
export interface BoundMemoryTool {
  readonly name: MemoryToolName;
  readonly title: string;
  readonly description: string;
  readonly readOnly: boolean;
  readonly inputSchema: MemoryToolInputSchema;
  /** The tool's JSON result (the MCP tool's), or a MemoryToolError; never rejects. */
  call(input: unknown): Promise<unknown>;
}

const TOOL_NAMES = new Set<string>(MEMORY_TOOLS.map((t) => t.name));

/** The memory tools for one caller: `include` and `readOnly` choose them, `namespace` confines them. */
export function bindMemoryTools(memory: Memory, options: MemoryToolsOptions = {}): BoundMemoryTool[] {
  for (const name of options.include ?? []) {
    if (!TOOL_NAMES.has(name))
      throw MemoryError.invalidInput(
        "include",
        `unknown tool ${JSON.stringify(name)}; expected one of ${[...TOOL_NAMES].join(", ")}`,
      );
  }
  if (options.namespace !== undefined && (typeof options.namespace !== "string" || options.namespace === ""))
    throw MemoryError.invalidInput("namespace", "expected a non-empty string");
  const context: MemoryToolContext = {
    scope: {
      ...(options.namespace === undefined ? {} : { namespaces: [options.namespace] }),
      readOnly: options.readOnly === true,
    },
    ...(options.actor === undefined ? {} : { actor: options.actor }),
    ...(options.sessionId === undefined ? {} : { sessionId: options.sessionId }),
  };
  const logger = options.logger ?? silentLogger;
  const included = new Set<string>(options.include ?? TOOL_NAMES);
  return MEMORY_TOOLS.filter((t) => included.has(t.name) && (t.readOnly || options.readOnly !== true)).map(
    (definition) => ({
      name: definition.name,
      title: definition.title,
      description: definition.description,
      readOnly: definition.readOnly,
      inputSchema: lenientInputSchema(definition),
      call: (input: unknown) => runMemoryTool(definition, memory, input, context, logger),
    }),
  );
}

/** Validates `input`, runs the tool, and turns every failure into a MemoryToolError. */
export async function runMemoryTool(
  definition: MemoryToolDefinition,
  memory: Memory,
  input: unknown,
  context: MemoryToolContext,
  logger: Logger = silentLogger,
): Promise<unknown> {
  const parsed = definition.inputSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue === undefined || issue.path.length === 0 ? "input" : issue.path.map(String).join(".");
    return toolError("INVALID_INPUT", `${field}: ${issue?.message ?? "invalid input"}`, field);
  }
  try {
    return await definition.execute(memory, parsed.data, context);
  } catch (error) {
    if (isMemoryError(error)) return toolError(error.code, error.message, error.field);
    logger.error(`${definition.name} failed`, { error: String(error) });
    return toolError("INTERNAL", "the tool failed");
  }
}

/** True when a tool's result is a MemoryToolError rather than its answer. */
export function isMemoryToolError(value: unknown): value is MemoryToolError {
  if (typeof value !== "object" || value === null || !("error" in value)) return false;
  const error = (value as { error: unknown }).error;
  return (
    typeof error === "object" && error !== null && typeof (error as { code?: unknown }).code === "string"
  );
}

function toolError(code: string, message: string, field?: string): MemoryToolError {
  return { error: { code, message, ...(field === undefined ? {} : { field }) } };
}

function lenientInputSchema(definition: MemoryToolDefinition): MemoryToolInputSchema {
  const render = ({ target }: { target: string }) => {
    const { $schema: _ignored, ...schema } = z.toJSONSchema(definition.inputSchema, { target, io: "input" });
    return schema;
  };
  return {
    "~standard": {
      version: 1,
      vendor: "claw-memory",
      validate: (value) => ({ value }),
      jsonSchema: { input: render, output: render },
    },
  };
}
