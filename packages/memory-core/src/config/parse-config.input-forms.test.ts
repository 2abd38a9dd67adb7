import { isMemoryError } from "@claw/memory-api";
import { describe, expect, it } from "vitest";
import type { MemoryConfigInput } from "./config-schema.js";
import { parseConfig } from "./parse-config.js";
import { captureLogger, thrownBy } from "./test-support/config-test-helpers.js";

describe("camelCase object input", () => {
  it("takes the sections", () => {
    const input: MemoryConfigInput = {
      memory: { searchMode: "bm25", mergeStrategy: "weighted", embeddingProvider: "none" },
      server: {
        port: 9000,
        tokens: [{ tokenEnv: "ADMIN_TOKEN" }, { token: "t", namespaces: ["a"], readOnly: true }],
      },
      providers: { openai: { apiKeyEnv: "OPENAI_API_KEY", model: "text-embedding-3-large" } },
      postgres: { url: "postgres://localhost/claw" },
    };
    const config = parseConfig(input);

    expect(config.memory.searchMode).toBe("bm25");
    expect(config.memory.mergeStrategy).toEqual({ kind: "weighted", vectorWeight: 0.7, keywordWeight: 0.3 });
    expect(config.server.port).toBe(9000);
    expect(config.server.tokens).toEqual([
      { tokenEnv: "ADMIN_TOKEN", readOnly: false },
      { token: "t", namespaces: ["a"], readOnly: true },
    ]);
    expect(config.providers.openai).toEqual({ apiKeyEnv: "OPENAI_API_KEY", model: "text-embedding-3-large" });
    expect(config.postgres.url).toBe("postgres://localhost/claw");
  });

  it("takes [memory] settings at the top level", () => {
    const logger = captureLogger();
    const input: MemoryConfigInput = { searchMode: "bm25", conflictThreshold: 0.7, server: { port: 1 } };
    const config = parseConfig(input, { logger });

    expect(config.memory.searchMode).toBe("bm25");
    expect(config.memory.conflictThreshold).toBe(0.7);
    expect(config.server.port).toBe(1);
    expect(logger.records).toEqual([]);
  });

  it("merges top-level settings with a memory section", () => {
    const config = parseConfig({ searchMode: "bm25", memory: { autoRecall: false } });

    expect(config.memory.searchMode).toBe("bm25");
    expect(config.memory.autoRecall).toBe(false);
  });

  it("a setting given both at the top level and in memory is INVALID_INPUT", () => {
    const error = thrownBy(() => parseConfig({ searchMode: "bm25", memory: { searchMode: "hybrid" } }));

    expect(isMemoryError(error, "INVALID_INPUT")).toBe(true);
    expect(error.message).toBe(
      "memory.search_mode: expected the setting once, got it both at the top level and in memory",
    );
  });

  it("a flat invalid value is named by its memory key", () => {
    const error = thrownBy(() => parseConfig({ conflictThreshold: "high" }));

    expect(error.message).toContain("memory.conflict_threshold");
  });
});
