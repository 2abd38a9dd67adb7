import { describe, expect, it } from "vitest";
import { applyEnvironment } from "./config-environment.js";
import { parseConfig } from "./parse-config.js";

describe("applyEnvironment", () => {
  it("fills each hosted provider's key from its standard variable, overriding the file", () => {
    const config = parseConfig({ providers: { openai: { apiKey: "from-file", model: "m" } } });
    const applied = applyEnvironment(config, {
      OPENAI_API_KEY: "sk-env",
      GEMINI_API_KEY: "g-env",
      VOYAGE_API_KEY: "",
    });
    expect(applied.providers.openai).toEqual({ apiKey: "sk-env", model: "m" });
    expect(applied.providers.gemini).toEqual({ apiKey: "g-env" });
    expect(applied.providers.voyage).toBeUndefined();
    expect(config.providers.openai?.apiKey).toBe("from-file");
  });

  it("reads a provider's api_key_env variable", () => {
    const config = parseConfig({ providers: { openai: { apiKeyEnv: "MY_KEY" } } });
    expect(applyEnvironment(config, { MY_KEY: " sk-mine " }).providers.openai?.apiKey).toBe("sk-mine");
    expect(applyEnvironment(config, {}).providers.openai?.apiKey).toBeUndefined();
  });

  it("CLAW_MEMORY_PG_URL overrides [postgres] url; empty counts as unset", () => {
    const config = parseConfig({ postgres: { url: "postgres://file/claw", schema: "agents" } });
    const applied = applyEnvironment(config, { CLAW_MEMORY_PG_URL: "postgres://env:secret@db/claw" });
    expect(applied.postgres).toEqual({
      url: "postgres://env:secret@db/claw",
      schema: "agents",
      textSearchConfig: "english",
      poolMax: 10,
      preparedStatements: true,
      indexBuildMemoryMb: 1024,
    });
    expect(applyEnvironment(config, { CLAW_MEMORY_PG_URL: " " }).postgres.url).toBe("postgres://file/claw");
    expect(config.postgres.url).toBe("postgres://file/claw");
  });
});
