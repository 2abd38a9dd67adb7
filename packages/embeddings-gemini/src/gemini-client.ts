// Shared by the embedding provider and the text generator: settings, API key per request, SDK client.

import { MemoryError } from "@claw/memory-api";
import { GoogleGenAI, type HttpOptions } from "@google/genai";
import { toMemoryError } from "./gemini-error.js";

/**
 * How to reach the Gemini API: the key, the base URL and the request options shared by embeddings
 * and text generation.
 */
export interface GeminiClientSettings {
  /** A key, or a function read before every request (so rotated keys apply without a restart). */
  apiKey?: string | (() => string | undefined);
  /** Default `https://generativelanguage.googleapis.com`; a trailing `/v1beta` or `/v1` selects that API version. */
  baseURL?: string;
  /** Per-attempt deadline in milliseconds. */
  timeoutMs?: number;
  /** Retries inside the SDK. Default 0: core retries with backoff and `Retry-After`, once. */
  maxRetries?: number;
  /** Extra HTTP headers on every request. */
  headers?: Record<string, string>;
  /** A fetch implementation (proxies, tests); default the global fetch. */
  fetch?: typeof globalThis.fetch;
}

const API_VERSION_SUFFIX = /\/(v1(?:alpha|beta)?)\/?$/;

export const MISSING_KEY_MESSAGE =
  "gemini: no API key: set GEMINI_API_KEY (or providers.gemini.api_key), or pass apiKey";

/** Checks settings at creation; never reads the key (it may not exist yet). */
export function validateClientSettings(settings: GeminiClientSettings): void {
  const { timeoutMs, maxRetries, baseURL } = settings;
  if (timeoutMs !== undefined && !(Number.isFinite(timeoutMs) && timeoutMs > 0)) {
    throw MemoryError.invalidInput("timeoutMs", `must be a positive number, got ${timeoutMs}`);
  }
  if (maxRetries !== undefined && !(Number.isInteger(maxRetries) && maxRetries >= 0)) {
    throw MemoryError.invalidInput("maxRetries", `must be an integer >= 0, got ${maxRetries}`);
  }
  if (baseURL !== undefined && !URL.canParse(baseURL)) {
    throw MemoryError.invalidInput("baseURL", `is not a URL: ${baseURL}`);
  }
}

/** The key for this request: the setting (or its function), else the SDK's usual environment variables. */
export function resolveApiKey(settings: GeminiClientSettings): string {
  const configured = typeof settings.apiKey === "function" ? settings.apiKey() : settings.apiKey;
  // Only the apps read the environment; they pass GEMINI_API_KEY in as `apiKey`.
  const key = configured;
  const trimmed = key?.trim();
  if (trimmed === undefined || trimmed === "") throw new MemoryError("PROVIDER_AUTH", MISSING_KEY_MESSAGE);
  return trimmed;
}

function clientHttpOptions(settings: GeminiClientSettings): HttpOptions {
  const options: HttpOptions = {};
  if (settings.baseURL !== undefined) {
    const match = API_VERSION_SUFFIX.exec(settings.baseURL);
    options.baseUrl = match ? settings.baseURL.slice(0, match.index) : settings.baseURL;
    if (match?.[1] !== undefined) options.apiVersion = match[1];
  }
  if (settings.timeoutMs !== undefined) options.timeout = settings.timeoutMs;
  if (settings.headers !== undefined) options.headers = { ...settings.headers };
  // Without retryOptions the SDK makes exactly one attempt.
  const retries = settings.maxRetries ?? 0;
  if (retries > 0) options.retryOptions = { attempts: retries + 1 };
  return options;
}

/** One request through the SDK with the current key; every failure comes out as a MemoryError. */
export type GeminiCall = <T>(
  signal: AbortSignal | undefined,
  request: (client: GoogleGenAI, httpOptions: HttpOptions) => Promise<T>,
) => Promise<T>;

export function createGeminiCall(settings: GeminiClientSettings): GeminiCall {
  // One client per key: a rotated key gets a fresh client, the common case reuses one.
  let cached: { apiKey: string; client: GoogleGenAI } | undefined;
  const baseFetch = settings.fetch;

  return async (signal, request) => {
    if (signal?.aborted) throw toMemoryError(signal.reason, { callerAborted: true });
    const apiKey = resolveApiKey(settings);
    if (cached?.apiKey !== apiKey) {
      cached = {
        apiKey,
        client: new GoogleGenAI({ apiKey, vertexai: false, httpOptions: clientHttpOptions(settings) }),
      };
    }
    // The SDK's ApiError drops response headers; a per-call fetch keeps them (Retry-After) for the error.
    let responseHeaders: Headers | null = null;
    const fetchKeepingRetryAfter = async (...args: Parameters<typeof globalThis.fetch>) => {
      const response = await (baseFetch ?? globalThis.fetch)(...args);
      if (!response.ok) responseHeaders = response.headers;
      return response;
    };
    try {
      return await request(cached.client, { fetch: fetchKeepingRetryAfter });
    } catch (error) {
      throw toMemoryError(error, {
        apiKey,
        responseHeaders,
        callerAborted: signal?.aborted === true,
        timeoutMs: settings.timeoutMs,
      });
    }
  };
}
