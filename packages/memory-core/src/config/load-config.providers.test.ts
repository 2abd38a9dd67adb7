import { describe, expect, it } from "vitest";
import { loadConfigFromToml } from "./load-config.js";
import { captureLogger, thrownBy } from "./test-support/config-test-helpers.js";

describe("[providers] tables", () => {
  it("keeps provider names as written and converts the settings inside", () => {
    const logger = captureLogger();
    const config = loadConfigFromToml(
      [
        "[providers.openai]",
        'api_key_env = "OPENAI_API_KEY"',
        "[providers.my_proxy]",
        'api_key = "proxy-key"',
        'base_url = "http://127.0.0.1:8080/v1"',
        'model = "bge-m3"',
      ].join("\n"),
      { logger },
    );

    expect(Object.keys(config.providers)).toEqual(["openai", "my_proxy"]);
    expect(config.providers.my_proxy).toEqual({
      apiKey: "proxy-key",
      baseUrl: "http://127.0.0.1:8080/v1",
      model: "bge-m3",
    });
    expect(config.providers.openai).toEqual({ apiKeyEnv: "OPENAI_API_KEY" });
    expect(logger.records).toEqual([]);
  });

  it("names an invalid provider setting with the provider name as written", () => {
    const error = thrownBy(() => loadConfigFromToml('[providers.my_proxy]\nbase_url = "localhost:8080"\n'));

    expect((error as { field?: string }).field).toBe("providers.my_proxy.base_url");
    expect(error.message).toContain("expected an http(s) URL");
  });

  it("does not repeat an API key in an error", () => {
    const error = thrownBy(() => loadConfigFromToml('[providers.openai]\napi_key = ""\n'));

    expect((error as { field?: string }).field).toBe("providers.openai.api_key");
    expect(error.message).toContain("a string of 0 characters");
  });
});
