import { describe, expect, it } from "vitest";
import { DEFAULT_CONFIG } from "./config-schema.js";
import { parseConfig } from "./parse-config.js";

describe("parseConfig defaults", () => {
  it("fills every default from an empty object", () => {
    const config = parseConfig({});

    expect(config.memory).toEqual({
      backend: "sqlite",
      autoSave: true,
      hygieneEnabled: true,
      hygieneIntervalHours: 12,
      conversationRetentionDays: 30,
      dailyRetentionDays: 30,
      snapshotEnabled: false,
      autoHydrate: true,
      conflictThreshold: 0.6,
      conflictMode: { kind: "combined", jaccardWeight: 0.4, cosineWeight: 0.4, bm25Weight: 0.2 },
      searchMode: "hybrid",
      mergeStrategy: { kind: "adaptive" },
      embeddingProvider: "auto",
      embeddingCacheMax: 10000,
      embeddingBatchTokens: 8000,
      embeddingConcurrency: 2,
      embeddingTimeoutMs: 30000,
      embeddingMaxRetries: 4,
      embeddingRetryDeadlineMs: 60_000,
      embeddingSweepMs: 60_000,
      historyMaxVersions: 0,
      historyMaxDays: 0,
      embeddingBatchApi: false,
      embeddingBatchApiMinEntries: 1000,
      embeddingBatchApiMaxFailures: 2,
      embeddingBatchApiPollMs: 30_000,
      embeddingBatchApiTimeoutMs: 86_400_000,
      backfillOnStartup: false,
      curatorProvider: "auto",
      autoRecall: true,
      autoRecallLimit: 5,
      maxContentBytes: 1048576,
      ftsEarlyReturnScore: 0.85,
      hotCacheSize: 256,
      hotCacheTtlSeconds: 300,
      decayHalfLifeDays: 7,
      decayFloor: 0.95,
      mmrEnabled: false,
      mmrLambda: 0.7,
      longEntryExponent: 0.5,
      sessionContextWeight: 0.5,
      keywordRankBudget: 5_000,
      sqliteCacheMib: 16,
      sqliteMmapMib: 2048,
      sqliteRowCacheSize: 16_384,
      maxDatabaseMb: 0,
      recallLimitMax: 1000,
      closeTimeoutMs: 10000,
      modelBaseUrl: "https://huggingface.co",
    });
    expect(config.server).toEqual({
      host: "127.0.0.1",
      port: 7878,
      bodyLimitBytes: 1048576,
      requestTimeoutMs: 30_000,
      rateLimitBurst: 100,
      rateLimitPerSecond: 20,
      recallWorkers: 2,
      recallLimitMax: 100,
      listLimitMax: 1000,
      importChunkSize: 500,
      importErrorsReported: 100,
      tokens: [],
    });
    expect(config.providers).toEqual({});
    expect(config.postgres).toEqual({
      schema: "public",
      textSearchConfig: "english",
      poolMax: 10,
      preparedStatements: true,
      indexBuildMemoryMb: 1024,
    });
  });

  it("leaves the settings whose absence means something undefined", () => {
    const { memory } = parseConfig(undefined);

    expect(memory.deferEmbedding).toBeUndefined();
    expect(memory.stableMemoryInSystemPrompt).toBeUndefined();
    expect(memory.embeddingModel).toBeUndefined();
    expect(memory.embeddingDims).toBeUndefined();
    expect(memory.embeddingFallback).toBeUndefined();
    expect(memory.minRetentionFloor).toBeUndefined();
  });

  it("exports the same defaults as DEFAULT_CONFIG, frozen", () => {
    expect(DEFAULT_CONFIG).toEqual(parseConfig({}));
    expect(Object.isFrozen(DEFAULT_CONFIG.memory.mergeStrategy)).toBe(true);
    expect(() => {
      (DEFAULT_CONFIG.server.tokens as unknown[]).push({});
    }).toThrow(TypeError);
  });

  it("returns a fresh object each time", () => {
    const first = parseConfig({});
    first.server.tokens.push({ token: "x", readOnly: false });
    first.memory.mergeStrategy = { kind: "weighted", vectorWeight: 1, keywordWeight: 0 };

    expect(parseConfig({}).server.tokens).toEqual([]);
    expect(parseConfig({}).memory.mergeStrategy).toEqual({ kind: "adaptive" });
  });
});

describe("string and object forms", () => {
  it.each([
    ["rrf", { kind: "rrf", k: 60 }],
    ["weighted", { kind: "weighted", vectorWeight: 0.7, keywordWeight: 0.3 }],
    [{ kind: "rrf" }, { kind: "rrf", k: 60 }],
    [
      { kind: "rrf", k: 10 },
      { kind: "rrf", k: 10 },
    ],
    [{ kind: "weighted" }, { kind: "weighted", vectorWeight: 0.7, keywordWeight: 0.3 }],
    [
      { kind: "weighted", vectorWeight: 0.5 },
      { kind: "weighted", vectorWeight: 0.5, keywordWeight: 0.3 },
    ],
    [
      { kind: "weighted", keywordWeight: 0.6 },
      { kind: "weighted", vectorWeight: 0.7, keywordWeight: 0.6 },
    ],
  ] as const)("mergeStrategy %j → %j", (given, expected) => {
    expect(parseConfig({ memory: { mergeStrategy: given } }).memory.mergeStrategy).toEqual(expected);
  });

  it.each([
    ["jaccard", { kind: "jaccard" }],
    ["combined", { kind: "combined", jaccardWeight: 0.4, cosineWeight: 0.4, bm25Weight: 0.2 }],
    [{ kind: "jaccard" }, { kind: "jaccard" }],
    [
      { kind: "combined", cosineWeight: 0.5, bm25Weight: 0.1 },
      { kind: "combined", jaccardWeight: 0.4, cosineWeight: 0.5, bm25Weight: 0.1 },
    ],
  ] as const)("conflictMode %j → %j", (given, expected) => {
    expect(parseConfig({ memory: { conflictMode: given } }).memory.conflictMode).toEqual(expected);
  });

  it("accepts every embedding provider name and custom:<url>", () => {
    for (const provider of ["auto", "local", "openai", "openrouter", "gemini", "voyage", "none"]) {
      expect(parseConfig({ memory: { embeddingProvider: provider } }).memory.embeddingProvider).toBe(
        provider,
      );
    }
    const custom = "custom:https://embeddings.example.com/v1";
    const { memory } = parseConfig({ memory: { embeddingProvider: custom, embeddingFallback: "none" } });

    expect(memory.embeddingProvider).toBe(custom);
    expect(memory.embeddingFallback).toBe("none");
  });
});
