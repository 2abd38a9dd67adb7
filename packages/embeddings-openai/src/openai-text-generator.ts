// TextGenerator (for the curator) on the chat completions API of OpenAI-compatible endpoints.
import type { TextGenerator } from "@claw/memory-api";
import { MemoryError } from "@claw/memory-api";
import type OpenAI from "openai";
import { createConnection, type OpenAIConnectionSettings } from "./openai-connection.js";
import { toMemoryError } from "./openai-error.js";

/** Settings of the OpenAI-compatible text generator the curator uses. */
export interface OpenAITextGeneratorSettings extends OpenAIConnectionSettings {
  /** Default "gpt-4o-mini". */
  model?: string;
  /** Sampling temperature; the endpoint's default when absent. */
  temperature?: number;
}

export const DEFAULT_CHAT_MODEL = "gpt-4o-mini";

/**
 * A TextGenerator over chat completions, for the curator. Throws INVALID_INPUT for bad settings; never calls
 * the API.
 */
export function createOpenAITextGenerator(settings: OpenAITextGeneratorSettings = {}): TextGenerator {
  const connection = createConnection(settings);
  const model = settings.model ?? DEFAULT_CHAT_MODEL;
  if (model.length === 0) throw MemoryError.invalidInput("model", "must not be empty");
  const label = `${connection.provider} chat (${model})`;

  return {
    async generate(request): Promise<string> {
      if (request.prompt.length === 0) throw MemoryError.invalidInput("prompt", "must not be empty");
      request.signal?.throwIfAborted();
      const messages: OpenAI.ChatCompletionMessageParam[] = [];
      if (request.system !== undefined && request.system.length > 0) {
        messages.push({ role: "system", content: request.system });
      }
      messages.push({ role: "user", content: request.prompt });
      const { client, apiKey } = connection.open();
      let completion: OpenAI.ChatCompletion;
      try {
        completion = await client.chat.completions.create(
          {
            model,
            messages,
            // OpenAI rejects json_object mode unless a message mentions JSON; the curator's prompt does.
            ...(request.json ? { response_format: { type: "json_object" as const } } : {}),
            ...(settings.temperature === undefined ? {} : { temperature: settings.temperature }),
          },
          { signal: request.signal },
        );
      } catch (error) {
        throw toMemoryError(error, { label, apiKey, signal: request.signal });
      }
      const choice = completion.choices?.[0];
      const content = choice?.message?.content;
      if (typeof content !== "string") {
        const refusal = choice?.message?.refusal;
        throw new MemoryError(
          "PROVIDER",
          `${label}: no text in the answer${refusal ? ` (refusal: ${refusal})` : ""}`,
          { retryable: false },
        );
      }
      return content;
    },
  };
}
