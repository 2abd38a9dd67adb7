// The language-model types the middleware works with, read off `ai`'s own LanguageModelMiddleware so
// that this package needs nothing but its peer dependency (`@ai-sdk/provider` is not one).
import type { LanguageModelMiddleware } from "ai";

type WrapGenerate = NonNullable<LanguageModelMiddleware["wrapGenerate"]>;
type WrapStream = NonNullable<LanguageModelMiddleware["wrapStream"]>;

export type CallOptions = Parameters<WrapGenerate>[0]["params"];
export type Prompt = CallOptions["prompt"];
export type PromptMessage = Prompt[number];
export type GenerateResult = Awaited<ReturnType<WrapGenerate>>;
export type ContentPart = GenerateResult["content"][number];
export type StreamResult = Awaited<ReturnType<WrapStream>>;
export type StreamPart = StreamResult["stream"] extends ReadableStream<infer Part> ? Part : never;
