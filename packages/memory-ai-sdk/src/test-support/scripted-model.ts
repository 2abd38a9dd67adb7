// What the tests' MockLanguageModelV4 (ai/test) answers: results in the provider spec's shapes.
import { simulateReadableStream } from "ai";
import type { CallOptions, GenerateResult, StreamPart, StreamResult } from "../model-types.js";

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

export function answer(text: string): GenerateResult {
  return {
    content: [{ type: "text", text }],
    finishReason: { unified: "stop", raw: "stop" },
    usage,
    warnings: [],
  };
}

export function callTools(calls: Array<{ id: string; name: string; input: unknown }>): GenerateResult {
  return {
    content: calls.map((c) => ({
      type: "tool-call" as const,
      toolCallId: c.id,
      toolName: c.name,
      input: JSON.stringify(c.input),
    })),
    finishReason: { unified: "tool-calls", raw: "tool_calls" },
    usage,
    warnings: [],
  };
}

/** The answer as a stream of a few text deltas, without delays. */
export function streamAnswer(text: string): StreamResult {
  const words = text.split(/(?<= )/);
  const chunks: StreamPart[] = [
    { type: "stream-start", warnings: [] },
    { type: "text-start", id: "t1" },
    ...words.map((delta): StreamPart => ({ type: "text-delta", id: "t1", delta })),
    { type: "text-end", id: "t1" },
    { type: "finish", finishReason: { unified: "stop", raw: "stop" }, usage },
  ];
  return { stream: simulateReadableStream({ chunks, initialDelayInMs: null, chunkDelayInMs: null }) };
}

/** The system prompt the model received: its system messages, joined. */
export function systemPromptOf(call: CallOptions): string {
  return call.prompt
    .filter((m) => m.role === "system")
    .map((m) => (m.role === "system" ? m.content : ""))
    .join("\n\n");
}

/** The text of the tool results the model received, by tool name. */
export function toolResultsOf(call: CallOptions): Array<{ toolName: string; output: unknown }> {
  return call.prompt.flatMap((m) =>
    m.role === "tool"
      ? m.content.flatMap((part) =>
          part.type === "tool-result" ? [{ toolName: part.toolName, output: part.output }] : [],
        )
      : [],
  );
}

/** A doGenerate that answers the n-th call with the n-th step; a call past the last one fails. */
export function inSteps(steps: Array<(call: CallOptions) => GenerateResult>) {
  let next = 0;
  return async (call: CallOptions): Promise<GenerateResult> => {
    const step = steps[next++];
    if (step === undefined) throw new Error(`the script has ${steps.length} steps; call ${next} came`);
    return step(call);
  };
}
