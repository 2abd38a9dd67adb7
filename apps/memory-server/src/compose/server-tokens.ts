import { MemoryError } from "@claw/memory-api";
import type { Environment, ServerSettings } from "@claw/memory-core";
import type { ServerToken } from "../auth/bearer-auth.js";

/** The variable whose value, when set, is one more token with every namespace (CONTRACT §5). */
export const API_KEY_VARIABLE = "CLAW_MEMORY_API_KEY";

/**
 * The tokens the server accepts: each `[[server.tokens]]` (its `token`, or the variable its
 * `token_env` names) plus CLAW_MEMORY_API_KEY. A `token_env` whose variable is unset or empty is an
 * error, not a token less: starting with fewer tokens than configured could open the server.
 */
export function resolveServerTokens(settings: ServerSettings, env: Environment): ServerToken[] {
  const tokens = settings.tokens.map((entry, index): ServerToken => {
    const name = `server.tokens[${index}]`;
    let token = entry.token;
    if (token === undefined && entry.tokenEnv !== undefined) {
      token = env[entry.tokenEnv]?.trim() || undefined;
      if (token === undefined) {
        throw MemoryError.invalidInput(
          `${name}.token_env`,
          `the environment variable ${entry.tokenEnv} is not set (or empty)`,
        );
      }
    }
    if (token === undefined) throw MemoryError.invalidInput(name, "expected token or token_env");
    return {
      token,
      name,
      readOnly: entry.readOnly,
      ...(entry.namespaces === undefined ? {} : { namespaces: entry.namespaces }),
    };
  });
  const apiKey = env[API_KEY_VARIABLE]?.trim();
  if (apiKey) tokens.push({ token: apiKey, name: API_KEY_VARIABLE, readOnly: false });
  return tokens;
}
