import { isMemoryError } from "@claw/memory-api";
import { describe, expect, it } from "vitest";
import { loadConfigFromToml } from "./load-config.js";
import { parseConfig } from "./parse-config.js";
import { thrownBy } from "./test-support/config-test-helpers.js";

function invalid(input: unknown): Error & { field?: string } {
  const error = thrownBy(() => parseConfig(input));
  expect(isMemoryError(error, "INVALID_INPUT")).toBe(true);
  return error;
}

describe("invalid values are INVALID_INPUT naming the TOML key", () => {
  it("wrong type: says what was expected and what was given", () => {
    const error = invalid({ memory: { conflictThreshold: "high" } });

    expect(error.field).toBe("memory.conflict_threshold");
    expect(error.message).toBe(
      'memory.conflict_threshold: expected a number between 0 and 1, got "high" (string)',
    );
  });

  it("wrong type in a TOML file names the file too", () => {
    const error = thrownBy(() =>
      loadConfigFromToml('[memory]\nconflict_threshold = "0.6"\n', { source: "/etc/claw-memory.toml" }),
    );

    expect(error.message).toContain("memory.conflict_threshold");
    expect(error.message).toContain("/etc/claw-memory.toml");
  });

  it.each([
    [{ memory: { conflictThreshold: 1.5 } }, "memory.conflict_threshold", "got 1.5 (number)"],
    [{ memory: { mmrLambda: -0.1 } }, "memory.mmr_lambda", "between 0 and 1"],
    [{ memory: { decayHalfLifeDays: 0 } }, "memory.decay_half_life_days", "greater than 0"],
    [{ memory: { embeddingDims: 76.8 } }, "memory.embedding_dims", "a positive integer"],
    [{ memory: { minRetentionFloor: -1 } }, "memory.min_retention_floor", "non-negative integer"],
    [{ server: { port: 70000 } }, "server.port", "an integer between 0 and 65535, got 70000"],
    [{ server: { recallWorkers: 65 } }, "server.recall_workers", "an integer between 0 and 64, got 65"],
    [{ server: { rateLimitPerSecond: -1 } }, "server.rate_limit_per_second", "non-negative integer"],
    [{ memory: { autoSave: "yes" } }, "memory.auto_save", 'expected true or false, got "yes"'],
    [{ memory: { searchMode: "fuzzy" } }, "memory.search_mode", 'one of "hybrid", "embedding", "bm25"'],
    [{ memory: { backend: "mysql" } }, "memory.backend", 'got "mysql"'],
    [{ memory: { sqliteCacheMib: 0 } }, "memory.sqlite_cache_mib", "an integer between 1 and 4096, got 0"],
    [
      { memory: { sqliteMmapMib: 4096 } },
      "memory.sqlite_mmap_mib",
      "an integer between 0 and 2048, got 4096",
    ],
  ])("%j → %s", (input, key, text) => {
    const error = invalid(input);

    expect(error.field).toBe(key);
    expect(error.message).toContain(text);
  });

  it("bad embedding_provider lists the accepted values", () => {
    const error = invalid({ memory: { embeddingProvider: "cohere" } });

    expect(error.field).toBe("memory.embedding_provider");
    expect(error.message).toContain('"openrouter"');
    expect(error.message).toContain('"custom:<http(s) url>", got "cohere"');
  });

  it.each(["custom:", "custom:not a url", "custom:ftp://example.com"])(
    "%s needs an http(s) URL",
    (provider) => {
      const error = invalid({ memory: { embeddingFallback: provider } });

      expect(error.field).toBe("memory.embedding_fallback");
      expect(error.message).toContain('expected "custom:" followed by an http(s) URL');
    },
  );

  it("a merge strategy that is neither form", () => {
    const error = invalid({ memory: { mergeStrategy: 60 } });

    expect(error.field).toBe("memory.merge_strategy");
    expect(error.message).toContain('"rrf", "weighted" or a table');
  });

  it("an object form with an unknown kind names the kind key", () => {
    const error = invalid({ memory: { conflictMode: { kind: "cosine" } } });

    expect(error.field).toBe("memory.conflict_mode.kind");
    expect(error.message).toContain('expected one of "jaccard", "combined", got "cosine"');
  });

  it("a bad field inside an object form names that field", () => {
    const error = invalid({ memory: { mergeStrategy: { kind: "weighted", vectorWeight: 2 } } });

    expect(error.field).toBe("memory.merge_strategy.vector_weight");
  });

  it("a token with none of token, token_env and token_sha256 names the entry", () => {
    const error = invalid({ server: { tokens: [{ namespaces: ["tenant-a"] }] } });

    expect(error.field).toBe("server.tokens[0]");
    expect(error.message).toContain("expected exactly one of token, token_env or token_sha256");
  });

  it("a token with both names the entry, and does not repeat the secret", () => {
    const secret = "s3cret-value-for-tenant";
    const error = invalid({ server: { tokens: [{ tokenEnv: "ADMIN" }, { token: secret, tokenEnv: "X" }] } });

    expect(error.field).toBe("server.tokens[1]");
    expect(error.message).not.toContain(secret);
  });

  it("names the nested snake_case key inside arrays of tables", () => {
    const error = invalid({ server: { tokens: [{ tokenEnv: "not a name" }] } });

    expect(error.field).toBe("server.tokens[0].token_env");
  });

  it("reports every invalid value in one error", () => {
    const error = invalid({ memory: { conflictThreshold: 2, searchMode: 1 }, server: { port: -1 } });

    expect(error.message).toContain("memory.conflict_threshold");
    expect(error.message).toContain("memory.search_mode");
    expect(error.message).toContain("server.port");
  });

  it("rejects a config that is not a table", () => {
    expect(invalid(42).message).toBe("config: expected a table of settings, got 42 (number)");
    expect(invalid({ memory: [] }).field).toBe("memory");
  });
});
