import type { MemoryConfig } from "./config-schema.js";

/** The environment variables that hold each hosted provider's API key (CONTRACT §4). */
export const PROVIDER_KEY_VARIABLES: Readonly<Record<string, string>> = {
  openai: "OPENAI_API_KEY",
  openrouter: "OPENROUTER_API_KEY",
  gemini: "GEMINI_API_KEY",
  voyage: "VOYAGE_API_KEY",
};

/** The variable that overrides `[postgres] url` (a connection string holds a password, which belongs
 *  in the environment rather than in a file). */
export const POSTGRES_URL_VARIABLE = "CLAW_MEMORY_PG_URL";

/** Variables the apps read; the libraries never look at the environment themselves. */
export type Environment = Readonly<Record<string, string | undefined>>;

/**
 * The config with the environment applied: a provider's `api_key_env` names the variable its key
 * is read from, and the standard variables (OPENAI_API_KEY, …) override the file for their
 * provider, and CLAW_MEMORY_PG_URL overrides `[postgres] url`. Empty variables count as unset. Returns a new object; `config` is not changed. The apps
 * call this with `process.env`.
 */
export function applyEnvironment(config: MemoryConfig, env: Environment): MemoryConfig {
  const providers = { ...config.providers };
  const read = (variable: string) => env[variable]?.trim() || undefined;
  for (const [name, settings] of Object.entries(providers)) {
    const value = settings.apiKeyEnv === undefined ? undefined : read(settings.apiKeyEnv);
    if (value !== undefined) providers[name] = { ...settings, apiKey: value };
  }
  for (const [name, variable] of Object.entries(PROVIDER_KEY_VARIABLES)) {
    const value = read(variable);
    if (value !== undefined) providers[name] = { ...providers[name], apiKey: value };
  }
  const postgresUrl = read(POSTGRES_URL_VARIABLE);
  const postgres = postgresUrl === undefined ? config.postgres : { ...config.postgres, url: postgresUrl };
  return { ...config, providers, postgres };
}
