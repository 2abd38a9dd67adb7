// `[[server.tokens]] token_sha256`: a token's SHA-256 digest in place of the token, normalised to
// lower case, refused (naming the key, never repeating the value) when it is not 64 hex digits.
import { createHash } from "node:crypto";
import { isMemoryError } from "@claw/memory-api";
import { describe, expect, it } from "vitest";
import { loadConfigFromToml } from "./load-config.js";
import { parseConfig } from "./parse-config.js";
import { plaintextTokenWarnings } from "./server-token-warnings.js";
import { thrownBy } from "./test-support/config-test-helpers.js";

const DIGEST = createHash("sha256").update("tenant-a-token", "utf8").digest("hex");

function invalid(input: unknown): Error & { field?: string } {
  const error = thrownBy(() => parseConfig(input));
  expect(isMemoryError(error, "INVALID_INPUT")).toBe(true);
  return error;
}

describe("[[server.tokens]] token_sha256", () => {
  it("is accepted from TOML with its scope", () => {
    const config = loadConfigFromToml(
      `[[server.tokens]]\n# tenant a\ntoken_sha256 = "${DIGEST}"\nnamespaces = ["tenant-a"]\nread_only = true\n`,
    );

    expect(config.server.tokens).toEqual([{ tokenSha256: DIGEST, namespaces: ["tenant-a"], readOnly: true }]);
  });

  it("upper-case hex is normalised to lower case", () => {
    const config = parseConfig({ server: { tokens: [{ tokenSha256: DIGEST.toUpperCase() }] } });

    expect(config.server.tokens[0]?.tokenSha256).toBe(DIGEST);
  });

  it.each([
    ["63 hex digits", DIGEST.slice(1)],
    ["65 hex digits", `${DIGEST}0`],
    ["a non-hex digit", `${DIGEST.slice(1)}g`],
    ["a token pasted in place of its hash", "kD3Nf0ZxQ1c2Ylq8r7u5Wv9AbCdEfGhIjKlMnOpQrSt"],
    ["the hash with a prefix", `sha256:${DIGEST}`],
    ["an empty string", ""],
  ])(
    "%s is INVALID_INPUT naming server.tokens[i].token_sha256, never repeating the value",
    (_what, value) => {
      const error = invalid({ server: { tokens: [{ tokenEnv: "ADMIN" }, { tokenSha256: value }] } });

      expect(error.field).toBe("server.tokens[1].token_sha256");
      expect(error.message).toBe(
        "server.tokens[1].token_sha256: expected a SHA-256 digest: 64 hex digits " +
          `(claw-memory token create NAME prints one), got a string of ${value.length} characters`,
      );
    },
  );

  it("a number is refused too", () => {
    expect(invalid({ server: { tokens: [{ tokenSha256: 42 }] } }).field).toBe(
      "server.tokens[0].token_sha256",
    );
  });

  it.each([
    ["token and token_sha256", { token: "secret-value", tokenSha256: DIGEST }],
    ["token_env and token_sha256", { tokenEnv: "ADMIN", tokenSha256: DIGEST }],
    ["all three", { token: "secret-value", tokenEnv: "ADMIN", tokenSha256: DIGEST }],
  ])("%s together are refused, naming the entry", (_what, entry) => {
    const error = invalid({ server: { tokens: [entry] } });

    expect(error.field).toBe("server.tokens[0]");
    expect(error.message).toContain("expected exactly one of token, token_env or token_sha256");
    expect(error.message).not.toContain("secret-value");
  });
});

describe("plaintextTokenWarnings", () => {
  it("names each entry holding a plaintext token, never the token", () => {
    const config = parseConfig({
      server: {
        tokens: [
          { token: "plain-secret-1" },
          { tokenSha256: DIGEST },
          { tokenEnv: "ADMIN" },
          { token: "plain-secret-2", readOnly: true },
        ],
      },
    });

    expect(plaintextTokenWarnings(config.server)).toEqual([
      "server.tokens[0] holds its token in plain text; store its hash instead: claw-memory token create NAME",
      "server.tokens[3] holds its token in plain text; store its hash instead: claw-memory token create NAME",
    ]);
  });

  it("has nothing to say about hashes and variables", () => {
    const config = parseConfig({ server: { tokens: [{ tokenSha256: DIGEST }, { tokenEnv: "ADMIN" }] } });

    expect(plaintextTokenWarnings(config.server)).toEqual([]);
  });
});
