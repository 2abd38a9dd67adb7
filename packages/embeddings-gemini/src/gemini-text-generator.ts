// Gemini `generateContent` as a claw-memory TextGenerator (used by the curator).
import type { TextGenerator } from "@claw/memory-api";
import { MemoryError } from "@claw/memory-api";
import type { GenerateContentConfig, GenerateContentResponse } from "@google/genai";
import { createGeminiCall, type GeminiClientSettings, validateClientSettings } from "./gemini-client.js";

/** Settings of the Gemini text generator the curator uses. */
export interface GeminiTextGeneratorSettings extends GeminiClientSettings {
  /** Default `gemini-2.0-flash`. */
  model?: string;
  temperature?: number;
  maxOutputTokens?: number;
}

/** The text model used when `model` is not given. */
export const GEMINI_DEFAULT_TEXT_MODEL = "gemini-2.0-flash";

/**
 * A TextGenerator over Gemini's generateContent, for the curator. Throws INVALID_INPUT for bad settings;
 * never calls the API.
 */
export function createGeminiTextGenerator(settings: GeminiTextGeneratorSettings = {}): TextGenerator {
  validateClientSettings(settings);
  const model = settings.model ?? GEMINI_DEFAULT_TEXT_MODEL;
  if (model.trim() === "") throw MemoryError.invalidInput("model", "must not be empty");
  const { temperature, maxOutputTokens } = settings;
  if (temperature !== undefined && !(Number.isFinite(temperature) && temperature >= 0)) {
    throw MemoryError.invalidInput("temperature", `must be a number >= 0, got ${temperature}`);
  }
  if (maxOutputTokens !== undefined && !(Number.isInteger(maxOutputTokens) && maxOutputTokens > 0)) {
    throw MemoryError.invalidInput("maxOutputTokens", `must be a positive integer, got ${maxOutputTokens}`);
  }
  const call = createGeminiCall(settings);

  return {
    async generate(request) {
      if (request.prompt.trim() === "") throw MemoryError.invalidInput("prompt", "must not be empty");
      const response = await call(request.signal, (client, httpOptions) => {
        const config: GenerateContentConfig = { httpOptions };
        if (request.system !== undefined && request.system !== "") config.systemInstruction = request.system;
        if (request.json === true) config.responseMimeType = "application/json";
        if (temperature !== undefined) config.temperature = temperature;
        if (maxOutputTokens !== undefined) config.maxOutputTokens = maxOutputTokens;
        if (request.signal !== undefined) config.abortSignal = request.signal;
        return client.models.generateContent({ model, contents: request.prompt, config });
      });
      return responseText(response);
    },
  };
}

/**
 * The answer's text parts, without thoughts. Read here rather than through `response.text`,
 * which writes a console warning when a response mixes part types.
 */
function responseText(response: GenerateContentResponse): string {
  const candidate = response.candidates?.[0];
  const text = (candidate?.content?.parts ?? [])
    .filter((part) => typeof part.text === "string" && part.thought !== true)
    .map((part) => part.text)
    .join("");
  if (text !== "") return text;
  const reason = response.promptFeedback?.blockReason ?? candidate?.finishReason ?? "no candidates";
  throw new MemoryError("PROVIDER", `gemini: the model returned no text (${reason})`, { retryable: false });
}
