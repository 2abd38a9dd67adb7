import { isMemoryError } from "@claw/memory-api";
import { describe, expect, it } from "vitest";
import { camelToSnake, convertTomlKeys, formatConfigKey, snakeToCamel } from "./config-keys.js";
import { thrownBy } from "./test-support/config-test-helpers.js";

describe("snake_case ↔ camelCase", () => {
  it.each([
    ["conflict_threshold", "conflictThreshold"],
    ["token_env", "tokenEnv"],
    ["read_only", "readOnly"],
    ["body_limit_bytes", "bodyLimitBytes"],
    ["bm25_weight", "bm25Weight"],
    ["stable_memory_in_system_prompt", "stableMemoryInSystemPrompt"],
    ["port", "port"],
  ])("%s ↔ %s", (snake, camel) => {
    expect(snakeToCamel(snake)).toBe(camel);
    expect(camelToSnake(camel)).toBe(snake);
  });

  it("leaves keys in neither form as they are", () => {
    expect(snakeToCamel("Search_Mode")).toBe("Search_Mode");
    expect(camelToSnake("Search_Mode")).toBe("Search_Mode");
    expect(snakeToCamel("searchMode")).toBe("searchMode");
  });
});

describe("convertTomlKeys", () => {
  it("converts tables and arrays of tables, never values", () => {
    const converted = convertTomlKeys({
      memory: { search_mode: "bm25_only", merge_strategy: { kind: "weighted", vector_weight: 0.5 } },
      server: {
        body_limit_bytes: 10,
        tokens: [{ token_env: "A_B", read_only: true, namespaces: ["tenant_a"] }],
      },
    });

    expect(converted).toEqual({
      memory: { searchMode: "bm25_only", mergeStrategy: { kind: "weighted", vectorWeight: 0.5 } },
      server: { bodyLimitBytes: 10, tokens: [{ tokenEnv: "A_B", readOnly: true, namespaces: ["tenant_a"] }] },
    });
  });

  it("keeps provider names verbatim and converts the settings inside them", () => {
    const converted = convertTomlKeys({
      providers: { my_proxy: { api_key_env: "PROXY_KEY", base_url: "http://localhost:8080" } },
    });

    expect(converted).toEqual({
      providers: { my_proxy: { apiKeyEnv: "PROXY_KEY", baseUrl: "http://localhost:8080" } },
    });
  });

  it("two spellings of one key are INVALID_INPUT", () => {
    const error = thrownBy(() => convertTomlKeys({ memory: { search_mode: "a", searchMode: "b" } }));

    expect(isMemoryError(error, "INVALID_INPUT")).toBe(true);
    expect(error.message).toContain("memory.search_mode");
  });

  it("treats a __proto__ key as an ordinary key", () => {
    const document = JSON.parse('{"memory": {"__proto__": {"polluted": true}}}') as unknown;
    const converted = convertTomlKeys(document) as { memory: Record<string, unknown> };

    expect(Object.keys(converted.memory)).toEqual(["__proto__"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe("formatConfigKey", () => {
  it("writes the dotted TOML key", () => {
    expect(formatConfigKey(["memory", "conflictThreshold"])).toBe("memory.conflict_threshold");
    expect(formatConfigKey(["server", "tokens", 0, "tokenEnv"])).toBe("server.tokens[0].token_env");
    expect(formatConfigKey(["providers", "myProxy", "apiKey"])).toBe("providers.myProxy.api_key");
    expect(formatConfigKey(["providers", "my.proxy", "baseUrl"])).toBe('providers."my.proxy".base_url');
    expect(formatConfigKey([])).toBe("config");
  });
});
