// Memory for any AI SDK model through wrapLanguageModel: recall before each call, save after it.
import type { Logger, Memory } from "@claw/memory-api";
import { MemoryError, silentLogger } from "@claw/memory-api";
import { autoSaveTurn } from "@claw/memory-lifecycle";
import type { LanguageModelMiddleware } from "ai";
import { buildMemoryBlock } from "./memory-block.js";
import type { CallOptions, ContentPart, StreamPart } from "./model-types.js";
import { lastUserText, withMemoryBlock } from "./system-prompt-block.js";

/**
 * Options of memoryMiddleware: the memory, where to recall from and save to, and how much to put in the
 * prompt.
 */
export interface MemoryMiddlewareOptions {
  memory: Memory;
  /** Where memories are recalled from and turns saved to; default "default". */
  namespace?: string;
  /** The session saved turns belong to. */
  sessionId?: string;
  /** Recalled memories at most; default the memory's `auto_recall_limit` (5). */
  recallLimit?: number;
  /** Tokens (about 4 characters each) the memory block may take in the system prompt; default 1400. */
  tokenBudget?: number;
  /** Save each turn after the answer; default the memory's `auto_save` (on). */
  autoSave?: boolean;
  /** Where memory failures are reported; they never fail the model call. */
  logger?: Logger;
}

/** Per-call overrides, as `providerOptions: { clawMemory: { sessionId, namespace } }`. */
export interface ClawMemoryProviderOptions {
  sessionId?: string;
  namespace?: string;
}

/**
 * A LanguageModelMiddleware for `wrapLanguageModel`. Before each call it recalls for the last user
 * message and puts the stable core memories and the recalled ones into the system prompt as one
 * `<claw-memory>` block (replacing a block an earlier turn left there, within `tokenBudget`).
 * After a call that answers (not one that asks for tools: the tool loop's last step saves the
 * turn) it saves the turn — the user's text and the assistant's — through autoSaveTurn; a stream
 * is saved when it finishes, before its end reaches the caller. A failing memory is logged and
 * the call goes on without it.
 *
 * @example
 * ```ts
 * import { openai } from "@ai-sdk/openai";
 * import { memoryMiddleware } from "@claw/memory-ai-sdk";
 * import { createMemory } from "@claw/memory-core";
 * import { generateText, wrapLanguageModel } from "ai";
 *
 * const memory = await createMemory({ workspaceDir: "./my-agent" });
 * const middleware = memoryMiddleware({ memory, sessionId: "chat-1" });
 * const model = wrapLanguageModel({ model: openai("gpt-4o-mini"), middleware });
 * const { text } = await generateText({ model, prompt: "What is my cat called?" });
 * ```
 */
export function memoryMiddleware(options: MemoryMiddlewareOptions): LanguageModelMiddleware {
  const { memory } = options;
  if (memory === null || typeof memory !== "object" || typeof memory.recall !== "function")
    throw MemoryError.invalidInput("memory", "expected a Memory");
  checkCount("recallLimit", options.recallLimit);
  checkCount("tokenBudget", options.tokenBudget);
  const logger = options.logger ?? silentLogger;

  const turnOf = (params: CallOptions) => {
    const overrides = clawMemoryOptions(params, logger);
    return {
      namespace: overrides.namespace ?? options.namespace,
      sessionId: overrides.sessionId ?? options.sessionId,
    };
  };

  const saveTurn = async (params: CallOptions, assistant: string): Promise<void> => {
    const user = lastUserText(params.prompt);
    if (user.trim() === "" || options.autoSave === false) return;
    const { namespace, sessionId } = turnOf(params);
    try {
      await autoSaveTurn(memory, { user, assistant, sessionId }, { namespace, enabled: options.autoSave });
    } catch (error) {
      logger.warn("claw-memory: saving the turn failed; the answer is returned without it", {
        error: String(error),
      });
    }
  };

  return {
    specificationVersion: "v4",

    async transformParams({ params }) {
      const message = lastUserText(params.prompt);
      try {
        const block = await buildMemoryBlock(memory, message, {
          namespace: turnOf(params).namespace,
          recallLimit: options.recallLimit,
          tokenBudget: options.tokenBudget,
          signal: params.abortSignal,
        });
        return { ...params, prompt: withMemoryBlock(params.prompt, block.text) };
      } catch (error) {
        logger.warn("claw-memory: recall failed; the call goes on without memory", { error: String(error) });
        return { ...params, prompt: withMemoryBlock(params.prompt, "") };
      }
    },

    async wrapGenerate({ doGenerate, params }) {
      const result = await doGenerate();
      if (!result.content.some(asksForTool)) await saveTurn(params, textOf(result.content));
      return result;
    },

    async wrapStream({ doStream, params }) {
      const { stream, ...rest } = await doStream();
      let text = "";
      let toolCalled = false;
      let done = false;
      const finish = async () => {
        if (done) return;
        done = true;
        if (!toolCalled) await saveTurn(params, text);
      };
      const saving = new TransformStream<StreamPart, StreamPart>({
        async transform(part, controller) {
          if (part.type === "text-delta") text += part.delta;
          else if (part.type === "tool-call" && part.providerExecuted !== true) toolCalled = true;
          else if (part.type === "error")
            done = true; // a failed answer is not a turn
          // Saved before the finish part goes on, so the turn is stored when the caller sees the end.
          else if (part.type === "finish") await finish();
          controller.enqueue(part);
        },
        flush: finish,
      });
      return { ...rest, stream: stream.pipeThrough(saving) };
    },
  };
}

function asksForTool(part: ContentPart): boolean {
  return part.type === "tool-call" && part.providerExecuted !== true;
}

function textOf(content: readonly ContentPart[]): string {
  return content
    .map((part) => (part.type === "text" ? part.text : ""))
    .join("")
    .trim();
}

function clawMemoryOptions(params: CallOptions, logger: Logger): ClawMemoryProviderOptions {
  const raw = params.providerOptions?.clawMemory;
  if (raw === undefined) return {};
  const picked: ClawMemoryProviderOptions = {};
  for (const field of ["sessionId", "namespace"] as const) {
    const value = raw[field];
    if (typeof value === "string" && value !== "") picked[field] = value;
    else if (value !== undefined && value !== null)
      logger.warn(`claw-memory: providerOptions.clawMemory.${field} ignored (expected a non-empty string)`);
  }
  return picked;
}

function checkCount(field: string, value: number | undefined): void {
  if (value !== undefined && (!Number.isInteger(value) || value < 1))
    throw MemoryError.invalidInput(field, "expected a positive integer");
}
