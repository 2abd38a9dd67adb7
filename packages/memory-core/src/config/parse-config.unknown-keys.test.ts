import { describe, expect, it } from "vitest";
import { loadConfigFromToml } from "./load-config.js";
import { parseConfig } from "./parse-config.js";
import { captureLogger } from "./test-support/config-test-helpers.js";

describe("unknown keys warn and are ignored", () => {
  it("a misspelt key in [memory]: one warning naming memory.serch_mode, no throw", () => {
    const logger = captureLogger();
    const config = loadConfigFromToml('[memory]\nserch_mode = "bm25"\n', {
      logger,
      source: "claw-memory.toml",
    });

    expect(logger.messages("warn")).toEqual(["unknown config key memory.serch_mode"]);
    expect(logger.records[0]?.data).toEqual({ key: "memory.serch_mode", source: "claw-memory.toml" });
    expect(config.memory.searchMode).toBe("hybrid");
  });

  it("the same in a camelCase object", () => {
    const logger = captureLogger();
    const config = parseConfig({ memory: { serchMode: "bm25", autoRecallLimit: 3 } }, { logger });

    expect(logger.messages("warn")).toEqual(["unknown config key memory.serch_mode"]);
    expect(config.memory.autoRecallLimit).toBe(3);
  });

  it("one warning per key, at every depth, with the valid settings kept", () => {
    const logger = captureLogger();
    const toml = [
      "colour = 1",
      "[memory]",
      "search_mode = 'bm25'",
      "merge_strategy = { kind = 'weighted', vector_weight = 0.6, extra = true }",
      "[server]",
      "prot = 1",
      "[[server.tokens]]",
      "token_env = 'ADMIN_TOKEN'",
      "scopes = ['a']",
      "[providers.openai]",
      "api_kee = 'x'",
      "[storage]",
      "path = '/tmp'",
    ].join("\n");
    const config = loadConfigFromToml(toml, { logger });

    expect([...logger.messages("warn")].sort()).toEqual(
      [
        "unknown config key colour",
        "unknown config key memory.merge_strategy.extra",
        "unknown config key server.prot",
        "unknown config key server.tokens[0].scopes",
        "unknown config key providers.openai.api_kee",
        "unknown config key storage",
      ].sort(),
    );
    expect(config.memory.searchMode).toBe("bm25");
    expect(config.memory.mergeStrategy).toEqual({ kind: "weighted", vectorWeight: 0.6, keywordWeight: 0.3 });
    expect(config.server.tokens).toEqual([{ tokenEnv: "ADMIN_TOKEN", readOnly: false }]);
    expect(config.providers).toEqual({ openai: {} });
  });

  it("still throws for invalid values next to unknown keys, after warning", () => {
    const logger = captureLogger();

    expect(() => parseConfig({ memory: { serchMode: "x", conflictThreshold: "high" } }, { logger })).toThrow(
      /memory\.conflict_threshold/,
    );
    expect(logger.messages("warn")).toEqual(["unknown config key memory.serch_mode"]);
  });

  it("does not change the caller's object", () => {
    const input = { memory: { serchMode: "bm25" } };
    parseConfig(input);

    expect(input).toEqual({ memory: { serchMode: "bm25" } });
  });
});
