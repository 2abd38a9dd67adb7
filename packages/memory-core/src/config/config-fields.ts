// Field schemas of the config, each carrying the "expected …" text that error messages show
// (parse-config appends ", got <value>").
import { z } from "zod";

/** The provider names `embedding_provider` and `embedding_fallback` accept, besides `custom:<url>`. */
export const EMBEDDING_PROVIDER_NAMES = [
  "auto",
  "local",
  "openai",
  "openrouter",
  "gemini",
  "voyage",
  "none",
] as const;

const CUSTOM_PROVIDER_PREFIX = "custom:";
const ENV_VAR_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Zod params whose message says what a field takes; every message in the schema starts with "expected ". */
export function expected(what: string): { error: string } {
  return { error: `expected ${what}` };
}

/** True for an absolute http: or https: URL. */
export function isHttpUrl(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const { protocol } = new URL(value);
  return protocol === "http:" || protocol === "https:";
}

/** True for a value `embedding_provider` accepts: a known name or `custom:<http(s) url>`. */
export function isEmbeddingProviderSpec(value: string): boolean {
  if ((EMBEDDING_PROVIDER_NAMES as readonly string[]).includes(value)) return true;
  return value.startsWith(CUSTOM_PROVIDER_PREFIX) && isHttpUrl(value.slice(CUSTOM_PROVIDER_PREFIX.length));
}

export function oneOf<const T extends readonly [string, ...string[]]>(values: T) {
  return z.enum(values, expected(`one of ${values.map((value) => JSON.stringify(value)).join(", ")}`));
}

export function flag() {
  return z.boolean(expected("true or false"));
}

export function nonEmptyString() {
  const message = expected("a non-empty string");
  return z.string(message).min(1, message);
}

export function envVarName() {
  const message = expected("an environment variable name (letters, digits and _)");
  return z.string(message).regex(ENV_VAR_NAME, message);
}

const SHA256_HEX = /^[0-9a-fA-F]{64}$/;

/** A SHA-256 digest as 64 hex digits (either case); the output is lower case. */
export function sha256Hex() {
  const message = expected("a SHA-256 digest: 64 hex digits (claw-memory token create NAME prints one)");
  return z
    .string(message)
    .regex(SHA256_HEX, message)
    .transform((value) => value.toLowerCase());
}

const SQL_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** An unquoted SQL identifier (lower case letters, digits, _), optionally schema-qualified when `qualified`. */
export function sqlName(qualified = false) {
  const message = expected(
    qualified
      ? "an SQL name (lower case letters, digits and _), optionally schema.name"
      : "an SQL name (lower case letters, digits and _)",
  );
  return z.string(message).refine((value) => {
    const parts = value.split(".");
    return (parts.length === 1 || (qualified && parts.length === 2)) && parts.every((p) => SQL_NAME.test(p));
  }, message);
}

export function httpUrl() {
  const message = expected("an http(s) URL");
  return z.string(message).refine(isHttpUrl, message);
}

export function embeddingProviderSpec() {
  const names = EMBEDDING_PROVIDER_NAMES.map((name) => JSON.stringify(name)).join(", ");
  const message = expected(`one of ${names} or "custom:<http(s) url>"`);
  return z.string(message).superRefine((value, ctx) => {
    if (isEmbeddingProviderSpec(value)) return;
    const custom = value.startsWith(CUSTOM_PROVIDER_PREFIX);
    ctx.addIssue({
      code: "custom",
      input: value,
      message: custom ? 'expected "custom:" followed by an http(s) URL' : message.error,
    });
  });
}

export const CURATOR_PROVIDER_NAMES = ["auto", "none", "openai", "openrouter", "gemini"] as const;

/** `curator_provider`: one of CURATOR_PROVIDER_NAMES or "custom:<http(s) url>". */
export function curatorProviderSpec() {
  const names = CURATOR_PROVIDER_NAMES.map((name) => JSON.stringify(name)).join(", ");
  const message = expected(`one of ${names} or "custom:<http(s) url>"`);
  return z
    .string(message)
    .refine(
      (value) =>
        (CURATOR_PROVIDER_NAMES as readonly string[]).includes(value) ||
        (value.startsWith(CUSTOM_PROVIDER_PREFIX) && isHttpUrl(value.slice(CUSTOM_PROVIDER_PREFIX.length))),
      message,
    );
}

export function numberBetween(min: number, max: number) {
  const message = expected(`a number between ${min} and ${max}`);
  return z.number(message).min(min, message).max(max, message);
}

export function integerBetween(min: number, max: number) {
  const message = expected(`an integer between ${min} and ${max}`);
  return z.int(message).min(min, message).max(max, message);
}

export function positiveNumber() {
  const message = expected("a number greater than 0");
  return z.number(message).positive(message);
}

export function nonNegativeNumber() {
  const message = expected("a number >= 0");
  return z.number(message).nonnegative(message);
}

export function positiveInteger() {
  const message = expected("a positive integer");
  return z.int(message).positive(message);
}

export function nonNegativeInteger() {
  const message = expected("a non-negative integer");
  return z.int(message).nonnegative(message);
}
