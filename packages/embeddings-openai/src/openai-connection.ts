// Settings shared by the embedding provider and the text generator: endpoint, key, client.
import { MemoryError } from "@claw/memory-api";
import OpenAI from "openai";

/** The endpoint family: OpenAI, OpenRouter, or any other OpenAI-compatible server ("custom"). */
export type OpenAIProviderKind = "openai" | "openrouter" | "custom";

/** A function key is called before every request, so a rotated key takes effect at once. */
export type OpenAIApiKey = string | (() => string | undefined);

/** How to reach an OpenAI-compatible endpoint: which one, the key, the base URL and request options. */
export interface OpenAIConnectionSettings {
  /** Which endpoint family; decides the default base URL, the env variable and `id`. Default "openai". */
  provider?: OpenAIProviderKind;
  /** Default: OPENAI_API_KEY (openai) or OPENROUTER_API_KEY (openrouter), read at each request. */
  apiKey?: OpenAIApiKey;
  /** Required for "custom"; defaults to the vendor's endpoint otherwise. */
  baseURL?: string;
  /** Per request. Default 30 000 ms (core's embedding_timeout_ms default). */
  timeoutMs?: number;
  /** SDK-level retries. Default 0: core retries once, honouring Retry-After, for every provider. */
  maxRetries?: number;
  /** Extra headers on every request (e.g. OpenRouter's HTTP-Referer / X-Title). */
  headers?: Record<string, string>;
  /** Passed to the SDK; for proxies, instrumentation and tests. */
  fetch?: typeof globalThis.fetch;
}

const DEFAULT_BASE_URL: Record<OpenAIProviderKind, string | undefined> = {
  openai: "https://api.openai.com/v1",
  openrouter: "https://openrouter.ai/api/v1",
  custom: undefined,
};

export const DEFAULT_TIMEOUT_MS = 30_000;

export interface OpenAIConnection {
  readonly provider: OpenAIProviderKind;
  readonly baseURL: string;
  /** A client carrying the key as it is now; throws PROVIDER_AUTH when there is none. */
  open(): { client: OpenAI; apiKey: string | undefined };
}

export function createConnection(settings: OpenAIConnectionSettings): OpenAIConnection {
  const provider = settings.provider ?? "openai";
  if (!(provider in DEFAULT_BASE_URL)) {
    throw MemoryError.invalidInput(
      "provider",
      `must be "openai", "openrouter" or "custom", got "${provider}"`,
    );
  }
  const baseURL = settings.baseURL ?? DEFAULT_BASE_URL[provider];
  if (baseURL === undefined || baseURL.length === 0) {
    throw MemoryError.invalidInput("baseURL", `is required for provider "custom"`);
  }
  if (!URL.canParse(baseURL)) throw MemoryError.invalidInput("baseURL", `is not a URL: "${baseURL}"`);
  const timeoutMs = settings.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1) {
    throw MemoryError.invalidInput("timeoutMs", `must be a positive integer, got ${timeoutMs}`);
  }
  const maxRetries = settings.maxRetries ?? 0;
  if (!Number.isInteger(maxRetries) || maxRetries < 0) {
    throw MemoryError.invalidInput("maxRetries", `must be a non-negative integer, got ${maxRetries}`);
  }

  return {
    provider,
    baseURL,
    open() {
      const apiKey = readApiKey(settings.apiKey);
      if (apiKey === undefined && provider !== "custom") {
        throw new MemoryError(
          "PROVIDER_AUTH",
          `${provider}: no API key; set OPENAI_API_KEY (or OPENROUTER_API_KEY / providers.openai.api_key)`,
          { retryable: false },
        );
      }
      // A client per request is cheap (no sockets of its own) and keeps each request's key its own.
      const client = new OpenAI({
        // Keyless custom endpoints (Ollama, vLLM) get no Authorization header at all (see below).
        apiKey: apiKey ?? "unused",
        baseURL,
        timeout: timeoutMs,
        maxRetries,
        // Explicit nulls: the SDK would otherwise add OPENAI_ORG_ID / OPENAI_PROJECT_ID from the env.
        organization: null,
        project: null,
        defaultHeaders: { ...settings.headers, ...(apiKey === undefined ? { Authorization: null } : {}) },
        ...(settings.fetch ? { fetch: settings.fetch } : {}),
      });
      return { client, apiKey };
    },
  };
}

function readApiKey(setting: OpenAIApiKey | undefined): string | undefined {
  const value = typeof setting === "function" ? setting() : setting;
  // Only the apps read the environment; they pass OPENAI_API_KEY / OPENROUTER_API_KEY as `apiKey`.
  return value !== undefined && value.length > 0 ? value : undefined;
}
