import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isMemoryError } from "@claw/memory-api";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadConfig } from "./load-config.js";
import { captureLogger, rejectionOf } from "./test-support/config-test-helpers.js";

const INLINE_TOKEN = `[server]
host = "0.0.0.0"

[[server.tokens]]
token_env = "CLAW_MEMORY_ADMIN_TOKEN"

[[server.tokens]]
token = "tenant-a-secret"
namespaces = ["tenant-a"]
read_only = false
`;

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "claw-config-perms-"));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function configFile(text: string, mode: number): Promise<string> {
  const path = join(dir, "claw-memory.toml");
  await writeFile(path, text);
  await chmod(path, mode);
  return path;
}

describe.skipIf(process.platform === "win32")("inline secrets and file permissions", () => {
  it("a world-readable file with an inline token is INVALID_INPUT on that token where a server starts", async () => {
    const path = await configFile(INLINE_TOKEN, 0o644);
    const error = await rejectionOf(loadConfig(path, { inlineTokens: "refuse" }));

    expect(isMemoryError(error, "INVALID_INPUT")).toBe(true);
    expect((error as { field?: string }).field).toBe("server.tokens[1].token");
    expect(error.message).toContain("chmod 600");
    expect(error.message).toContain("token_env");
    expect(error.message).not.toContain("tenant-a-secret");
  });

  it("elsewhere it loads with a warning naming the token's key, never the token", async () => {
    const path = await configFile(INLINE_TOKEN, 0o644);
    const logger = captureLogger();
    const config = await loadConfig(path, { logger });

    expect(config.server.tokens).toHaveLength(2);
    expect(logger.messages("warn")).toHaveLength(1);
    expect(logger.messages("warn")[0]).toContain("server.tokens[1].token");
    expect(logger.messages("warn")[0]).toContain("chmod 600");
    expect(logger.messages("warn")[0]).not.toContain("tenant-a-secret");
  });

  it("the same file loads once it is chmod 600", async () => {
    const path = await configFile(INLINE_TOKEN, 0o600);
    const config = await loadConfig(path);

    expect(config.server.tokens).toEqual([
      { tokenEnv: "CLAW_MEMORY_ADMIN_TOKEN", readOnly: false },
      { token: "tenant-a-secret", namespaces: ["tenant-a"], readOnly: false },
    ]);
  });

  it("a world-readable file with token_env only loads", async () => {
    const path = await configFile('[[server.tokens]]\ntoken_env = "ADMIN_TOKEN"\n', 0o644);
    const config = await loadConfig(path);

    expect(config.server.tokens).toEqual([{ tokenEnv: "ADMIN_TOKEN", readOnly: false }]);
  });

  it("a world-readable file holding only token hashes loads where a server starts, without a warning", async () => {
    const digest = "9F86D081884C7D659A2FEAA0C55AD015A3BF4F1B2B0B822CD15D6C15B0F00A08";
    const path = await configFile(
      `[[server.tokens]]\n# ci\ntoken_sha256 = "${digest}"\nnamespaces = ["ci"]\n\n` +
        '[[server.tokens]]\ntoken_env = "ADMIN_TOKEN"\n',
      0o644,
    );
    const logger = captureLogger();
    const config = await loadConfig(path, { logger, inlineTokens: "refuse" });

    expect(config.server.tokens).toEqual([
      { tokenSha256: digest.toLowerCase(), namespaces: ["ci"], readOnly: false },
      { tokenEnv: "ADMIN_TOKEN", readOnly: false },
    ]);
    expect(logger.records).toEqual([]);
  });

  it("the refusal of an inline token names token_sha256 as a way out", async () => {
    const path = await configFile(INLINE_TOKEN, 0o644);
    const error = await rejectionOf(loadConfig(path, { inlineTokens: "refuse" }));

    expect(error.message).toContain("token_sha256, from claw-memory token create NAME");
  });

  it("a world-readable file with an inline API key loads with a warning", async () => {
    const path = await configFile('[providers.openai]\napi_key = "sk-test"\n', 0o644);
    const logger = captureLogger();
    const config = await loadConfig(path, { logger });

    expect(config.providers.openai?.apiKey).toBe("sk-test");
    expect(logger.messages("warn")).toHaveLength(1);
    expect(logger.messages("warn")[0]).toContain("providers.openai.api_key");
    expect(logger.messages("warn")[0]).not.toContain("sk-test");
  });
});
