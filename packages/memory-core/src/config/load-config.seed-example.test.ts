import type { ConflictMode, MergeStrategy, SearchMode } from "@claw/memory-api";
import { describe, expect, it } from "vitest";
import { loadConfigFromToml } from "./load-config.js";
import { captureLogger } from "./test-support/config-test-helpers.js";

// The configuration example at the end of seed 000, as written (comments and commented-out floors included).
const SEED_000_EXAMPLE = `[memory]
backend = "sqlite"
auto_save = true
hygiene_enabled = true                    # 启用定期清理(默认:true)
conversation_retention_days = 30          # 修剪保留天数(默认:30)
snapshot_enabled = false                  # 导出 Core 记忆到 MEMORY_SNAPSHOT.md(默认:false)
auto_hydrate = true                       # brain.db 缺失时从快照重新索引(默认:true)
conflict_threshold = 0.6                  # 冲突检测相似度阈值(默认:0.6)
conflict_mode = "combined"                # "jaccard" 或 "combined"(默认:"combined")
search_mode = "hybrid"                    # "hybrid"、"embedding" 或 "bm25"(默认:"hybrid")
merge_strategy = "rrf"                    # "rrf" 或 "weighted"(默认:"rrf")
defer_embedding = true                    # 异步嵌入回填(默认:有提供者时 true)
embedding_provider = "local"              # "local"、"openai"、"openrouter"、"custom:<url>" 或 None
embedding_model = "gte-multilingual-base" # 嵌入模型名称(默认:local 用 gte-multilingual-base,openai 用 text-embedding-3-small)
embedding_dims = 768                      # 向量维度(可选,local 自动检测)
embedding_cache_max = 10000               # 嵌入缓存大小(默认:10000)
backfill_on_startup = false               # 启动时批量回填 NULL 嵌入(默认:false)
auto_recall = true                        # 每轮自动召回相关记忆(默认:true)
auto_recall_limit = 5                     # 每轮最大召回条目数(默认:5)
stable_memory_in_system_prompt = true     # 将 Core 记忆注入系统提示(默认:auto_recall 时 true)
# 分类保留量守卫(默认:无守卫)
# min_retention_floor = 50                # 全分类 floor
# conversation_retention_floor = 30       # Conversation 分类 floor
# daily_retention_floor = 20              # Daily 分类 floor
`;

describe("the seed 000 [memory] example", () => {
  it("loads as written, without warnings", () => {
    const logger = captureLogger();
    const { memory } = loadConfigFromToml(SEED_000_EXAMPLE, { logger, source: "seed-000.toml" });

    expect(logger.records).toEqual([]);
    expect(memory).toMatchObject({
      backend: "sqlite",
      autoSave: true,
      hygieneEnabled: true,
      conversationRetentionDays: 30,
      snapshotEnabled: false,
      autoHydrate: true,
      conflictThreshold: 0.6,
      conflictMode: { kind: "combined", jaccardWeight: 0.4, cosineWeight: 0.4, bm25Weight: 0.2 },
      searchMode: "hybrid",
      mergeStrategy: { kind: "rrf", k: 60 },
      deferEmbedding: true,
      embeddingProvider: "local",
      embeddingModel: "gte-multilingual-base",
      embeddingDims: 768,
      embeddingCacheMax: 10000,
      backfillOnStartup: false,
      autoRecall: true,
      autoRecallLimit: 5,
      stableMemoryInSystemPrompt: true,
    });
    expect(memory.minRetentionFloor).toBeUndefined();
    expect(memory.conversationRetentionFloor).toBeUndefined();
    expect(memory.dailyRetentionFloor).toBeUndefined();
  });

  it("fills the keys the example leaves out with their defaults", () => {
    const { memory, server, providers } = loadConfigFromToml(SEED_000_EXAMPLE);

    expect(memory.dailyRetentionDays).toBe(30);
    expect(memory.hygieneIntervalHours).toBe(12);
    expect(memory.ftsEarlyReturnScore).toBe(0.85);
    expect(memory.decayHalfLifeDays).toBe(7);
    expect(server).toEqual({
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
    expect(providers).toEqual({});
  });

  it("takes the retention floors once their lines are uncommented", () => {
    const uncommented = SEED_000_EXAMPLE.replace(/^# ((?:min|conversation|daily)_retention_floor)/gm, "$1");
    const { memory } = loadConfigFromToml(uncommented);

    expect(memory.minRetentionFloor).toBe(50);
    expect(memory.conversationRetentionFloor).toBe(30);
    expect(memory.dailyRetentionFloor).toBe(20);
  });

  it("produces the memory-api types for search mode, merge strategy and conflict mode", () => {
    const { memory } = loadConfigFromToml(SEED_000_EXAMPLE);
    // Compile-time check: the schema's output is assignable to the public types.
    const searchMode: SearchMode = memory.searchMode;
    const mergeStrategy: MergeStrategy = memory.mergeStrategy;
    const conflictMode: ConflictMode = memory.conflictMode;

    expect([searchMode, mergeStrategy.kind, conflictMode.kind]).toEqual(["hybrid", "rrf", "combined"]);
  });
});
