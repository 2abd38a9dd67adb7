import { createHash, randomBytes } from "node:crypto";
import type { CliContext } from "../cli-context.js";
import { UsageError } from "../exit-codes.js";

/** Random bytes in a new token: 256 bits, 43 base64url characters. */
const TOKEN_BYTES = 32;
const MAX_NAME_CHARS = 128;
// Control characters would end the TOML comment or string the value is written into.
const CONTROL = /\p{Cc}/u;

/**
 * `token create NAME`: a new random server token, printed once, and the `[[server.tokens]]` lines
 * that hold its SHA-256 digest rather than the token. Writes nothing and opens no store.
 */
export async function tokenCreateCommand(
  ctx: CliContext,
  name: string,
  opts: { namespace?: string[]; readOnly?: boolean },
) {
  const label = checkedText(name, "NAME", MAX_NAME_CHARS);
  const namespaces =
    opts.namespace === undefined
      ? undefined
      : [...new Set(opts.namespace.map((ns) => checkedText(ns, "--namespace", 256)))];
  const readOnly = opts.readOnly === true;
  const token = randomBytes(TOKEN_BYTES).toString("base64url");
  const tokenSha256 = createHash("sha256").update(token, "utf8").digest("hex");
  const toml = [
    "[[server.tokens]]",
    `# ${label}, created ${ctx.deps.now().toISOString().slice(0, 10)}`,
    `token_sha256 = "${tokenSha256}"`,
    ...(namespaces === undefined ? [] : [`namespaces = [${namespaces.map(tomlString).join(", ")}]`]),
    ...(readOnly ? ["read_only = true"] : []),
  ].join("\n");
  ctx.result(
    { name: label, token, tokenSha256, ...(namespaces === undefined ? {} : { namespaces }), readOnly, toml },
    () =>
      [
        `token for ${label} (shown only this once: give it to the client now, it cannot be recovered):`,
        "",
        token,
        "",
        "add to claw-memory.toml (the hash is not a secret), then restart the server:",
        "",
        toml,
      ].join("\n"),
  );
}

function checkedText(text: string, what: string, maxChars: number): string {
  if (text.trim() === "") throw new UsageError(`${what} must not be empty`);
  if (CONTROL.test(text) || !text.isWellFormed()) {
    throw new UsageError(`${what} must be printable text (no control characters)`);
  }
  if (text.length > maxChars) throw new UsageError(`${what} must be at most ${maxChars} characters`);
  return text;
}

/** A TOML basic string: JSON's escapes are TOML's, once control characters and lone surrogates are out. */
function tomlString(value: string): string {
  return JSON.stringify(value);
}
