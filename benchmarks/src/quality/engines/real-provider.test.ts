import { describe, expect, it } from "vitest";
import { realProviderEngine } from "./real-provider.js";

describe("the real-provider hybrid engine", () => {
  it("is not built when no key or provider is configured", async () => {
    expect(await realProviderEngine({}, "/tmp", () => {})).toEqual({});
  });

  it("says why when the configured provider cannot be loaded", async () => {
    const result = await realProviderEngine({ OPENAI_API_KEY: "sk-test" }, "/tmp", () => {});
    expect(result.engine).toBeUndefined();
    expect(result.note).toContain("@claw/embeddings-openai");
  });

  it("names an unknown explicit provider in the note", async () => {
    const result = await realProviderEngine(
      { CLAW_MEMORY_BENCH_PROVIDER: "custom:http://127.0.0.1:9/v1" },
      "/tmp",
      () => {},
    );
    expect(result.engine).toBeUndefined();
    expect(result.note).toMatch(/real embedding provider not used: .*custom:http:\/\/127\.0\.0\.1:9\/v1/);
  });
});
