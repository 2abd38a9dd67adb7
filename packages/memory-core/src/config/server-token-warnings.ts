// What `status` says about the `[[server.tokens]]` of a config: each one holding its token in plain
// text, where a hash would do (a leaked config file is then a leaked credential).
import { formatConfigKey } from "./config-keys.js";
import type { ServerSettings } from "./config-schema.js";

/** One warning per `[[server.tokens]]` entry with a plaintext `token`, naming the entry, never the token. */
export function plaintextTokenWarnings(settings: Pick<ServerSettings, "tokens">): string[] {
  return settings.tokens.flatMap((entry, index) =>
    entry.token === undefined
      ? []
      : [
          `${formatConfigKey(["server", "tokens", index])} holds its token in plain text; ` +
            "store its hash instead: claw-memory token create NAME",
        ],
  );
}
