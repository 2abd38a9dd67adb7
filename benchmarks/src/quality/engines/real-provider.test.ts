import { describe, expect, it } from "vitest";
import { realProviderEngine } from "./real-provider.js";

describe("the real-provider hybrid engine", () => {
  it("is not built when no key or provider is configured", async () => {
    expect(await realProviderEngine({}, "/tmp", () => {})).toEqual({});
  });

  it("builds a hybrid engine on the provider an API key selects", async () => {
    const result = await realProviderEngine({ OPENAI_API_KEY: "sk-test" }, "/tmp", () => {});
    expect(result.engine?.name).toBe("claw-hybrid-openai");
    expect(result.note).toBe("claw-hybrid-openai: openai text-embedding-3-small (1536 dims)");
  });

  it("says why when the configured provider is not valid", async () => {
    const result = await realProviderEngine({ CLAW_MEMORY_BENCH_PROVIDER: "nonsense" }, "/tmp", () => {});
    expect(result.engine).toBeUndefined();
    expect(result.note).toMatch(/^real embedding provider not used: .*embedding_provider/);
  });
});
