import type { TextGenerator } from "@claw/memory-api";
import { describe, expect, it } from "vitest";
import { applyEnvironment } from "../config/config-environment.js";
import { parseConfig } from "../config/parse-config.js";
import { resolveTextGenerator } from "./resolve-text-generator.js";

/** Stands in for the provider packages: records which factory was called with what. */
function packages() {
  const calls: Array<{ pkg: string; factory: string; settings: Record<string, unknown> }> = [];
  const generator: TextGenerator = { generate: async () => "{}" };
  const importModule = async (pkg: string) => ({
    createOpenAITextGenerator: (settings: Record<string, unknown>) => {
      calls.push({ pkg, factory: "openai", settings });
      return generator;
    },
    createGeminiTextGenerator: (settings: Record<string, unknown>) => {
      calls.push({ pkg, factory: "gemini", settings });
      return generator;
    },
  });
  return { calls, generator, importModule };
}

describe("resolveTextGenerator", () => {
  it("auto picks the first hosted provider with a key", async () => {
    const { calls, generator, importModule } = packages();
    const config = applyEnvironment(parseConfig({}), { GEMINI_API_KEY: "g" });
    const resolved = await resolveTextGenerator(config, { importModule });
    expect(resolved.generator).toBe(generator);
    expect(calls).toEqual([
      {
        pkg: "@claw/embeddings-gemini",
        factory: "gemini",
        settings: expect.objectContaining({ apiKey: "g" }),
      },
    ]);
  });

  it("passes a custom endpoint and the curator model to the OpenAI-compatible generator", async () => {
    const { calls, importModule } = packages();
    const config = parseConfig({
      memory: { curatorProvider: "custom:http://127.0.0.1:9/v1", curatorModel: "llama" },
    });
    await resolveTextGenerator(config, { importModule });
    expect(calls[0]?.settings).toMatchObject({
      provider: "custom",
      baseURL: "http://127.0.0.1:9/v1",
      model: "llama",
    });
  });

  it("says which variable to set when there is no key", async () => {
    const { importModule } = packages();
    expect((await resolveTextGenerator(parseConfig({}), { importModule })).reason).toMatch(/OPENAI_API_KEY/);
    const openai = parseConfig({ memory: { curatorProvider: "openai" } });
    expect(await resolveTextGenerator(openai, { importModule })).toEqual({
      generator: null,
      reason: 'curator provider "openai" has no API key: set OPENAI_API_KEY',
    });
  });

  it("says which package to install when it is missing", async () => {
    const config = applyEnvironment(parseConfig({}), { OPENAI_API_KEY: "k" });
    const resolved = await resolveTextGenerator(config, {
      importModule: async () => {
        throw new Error("Cannot find package");
      },
    });
    expect(resolved.reason).toMatch(/needs the package @claw\/embeddings-openai/);
  });

  it("rejects an unknown curator_provider in the config", () => {
    expect(() => parseConfig({ memory: { curatorProvider: "voyage" } })).toThrow(/curator_provider/);
  });
});
