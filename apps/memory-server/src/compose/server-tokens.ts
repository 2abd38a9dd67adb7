import { MemoryError } from "@claw/memory-api";
import type { Environment, MemoryConfig, ServerSettings } from "@claw/memory-core";
import { type ServerToken, tokenSha256 } from "../auth/bearer-auth.js";

/** The variable whose value, when set, is one more token with every namespace (CONTRACT §5). */
export const API_KEY_VARIABLE = "CLAW_MEMORY_API_KEY";

/**
 * The tokens the server accepts, each as its SHA-256 digest: each `[[server.tokens]]` (its
 * `token_sha256`, or the hash of its `token` or of the variable its `token_env` names) plus
 * CLAW_MEMORY_API_KEY. A `token_env` whose variable is unset or empty is an error, not a token
 * less: starting with fewer tokens than configured could open the server.
 */
export function resolveServerTokens(settings: ServerSettings, env: Environment): ServerToken[] {
  const tokens = settings.tokens.map((entry, index): ServerToken => {
    const name = `server.tokens[${index}]`;
    let sha256 = entry.tokenSha256;
    if (sha256 === undefined && entry.token !== undefined) sha256 = tokenSha256(entry.token);
    if (sha256 === undefined && entry.tokenEnv !== undefined) {
      const token = env[entry.tokenEnv]?.trim() || undefined;
      if (token === undefined) {
        throw MemoryError.invalidInput(
          `${name}.token_env`,
          `the environment variable ${entry.tokenEnv} is not set (or empty)`,
        );
      }
      sha256 = tokenSha256(token);
    }
    if (sha256 === undefined) {
      throw MemoryError.invalidInput(name, "expected token, token_env or token_sha256");
    }
    return {
      sha256,
      name,
      readOnly: entry.readOnly,
      ...(entry.namespaces === undefined ? {} : { namespaces: entry.namespaces }),
    };
  });
  const apiKey = env[API_KEY_VARIABLE]?.trim();
  if (apiKey) tokens.push({ sha256: tokenSha256(apiKey), name: API_KEY_VARIABLE, readOnly: false });
  return tokens;
}

/**
 * The config with each plaintext `[[server.tokens]] token` replaced by its `token_sha256`: what a
 * running server keeps (and hands to its store and recall workers), so no token it was configured
 * with stays in its memory. Returns a new object when there is one; `config` is not changed.
 */
export function withTokensHashed(config: MemoryConfig): MemoryConfig {
  if (config.server.tokens.every((entry) => entry.token === undefined)) return config;
  const tokens = config.server.tokens.map(({ token, ...entry }) =>
    token === undefined ? entry : { ...entry, tokenSha256: tokenSha256(token) },
  );
  return { ...config, server: { ...config.server, tokens } };
}
