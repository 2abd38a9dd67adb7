import { MemoryError } from "@claw/memory-api";
import { describe, expect, it } from "vitest";
import {
  type RecallEngineDeps,
  type RecallRow,
  type RecallSource,
  runRecallEngine,
  type ScoredRow,
} from "./recall-engine.js";

const NOW = new Date("2026-01-15T00:00:00.000Z");

function row(rid: number, content: string, extra: Partial<RecallRow> = {}): RecallRow {
  return { rid, key: `k${rid}`, content, category: "core", updated_at: NOW.toISOString(), ...extra };
}

/** A store whose searches answer from fixed lists, recording what the engine asked for. */
function fakeSource(
  options: {
    keyword?: ScoredRow<RecallRow>[];
    vector?: Array<{ rid: number; similarity: number }>;
    rows?: RecallRow[];
    like?: ScoredRow<RecallRow>[];
    embed?: ((query: string) => Promise<Float32Array>) | null;
  } = {},
) {
  const calls: string[] = [];
  const all = new Map((options.rows ?? []).map((r) => [r.rid, r]));
  const source: RecallSource<RecallRow> = {
    mostRecent: (limit) => {
      calls.push(`recent:${limit}`);
      return [...all.values()].slice(0, limit);
    },
    keyword: (_query, depth) => {
      calls.push(`keyword:${depth}`);
      return options.keyword ?? [];
    },
    embedQuery:
      options.embed === null
        ? null
        : async (query) => {
            calls.push("embed");
            return options.embed ? options.embed(query) : new Float32Array([1, 0]);
          },
    vector: () => {
      calls.push("vector");
      return options.vector ?? [];
    },
    rows: (rids) => {
      calls.push(`rows:${rids.join(",")}`);
      return rids.flatMap((rid) => all.get(rid) ?? []);
    },
    like: () => {
      calls.push("like");
      return options.like ?? [];
    },
  };
  return { source, calls };
}

function deps(settings: Partial<RecallEngineDeps["settings"]> = {}) {
  const warnings: string[] = [];
  const value: RecallEngineDeps = {
    settings: {
      mergeStrategy: { kind: "rrf", k: 60 },
      ftsEarlyReturnScore: 0.85,
      decayHalfLifeDays: 7,
      decayFloor: 0,
      mmrEnabled: false,
      mmrLambda: 0.7,
      longEntryExponent: 0.5,
      ...settings,
    },
    now: () => NOW,
    warnOnce: (reason) => warnings.push(reason),
  };
  return { value, warnings };
}

const keysOf = (rows: ReadonlyArray<{ row: RecallRow }>) => rows.map((r) => r.row.key);

describe("runRecallEngine", () => {
  it('answers "" and "*" with the most recent rows, unscored', async () => {
    const { source, calls } = fakeSource({ rows: [row(1, "a"), row(2, "b")] });
    for (const query of ["", "  *  "]) {
      const found = await runRecallEngine(source, deps().value, { query, limit: 1, mode: "hybrid" });
      expect(found).toEqual([{ row: row(1, "a") }]);
    }
    expect(calls).toEqual(["recent:1", "recent:1"]);
  });

  it("runs keyword-only when the store has no provider, whatever the mode", async () => {
    const hit = row(1, "tea");
    const { source, calls } = fakeSource({ keyword: [{ row: hit, score: 3 }], embed: null });
    const found = await runRecallEngine(source, deps().value, { query: "tea", limit: 5, mode: "embedding" });
    // The only hit has every term and the best strength: 0.5 × 1 + 0.5 × 1.
    expect(found).toEqual([{ row: hit, score: 1 }]);
    expect(calls).toEqual(["keyword:40"]);
  });

  it("skips the vector stage when the best keyword hit is strong and covers every term", async () => {
    const strong = { row: row(1, "green tea"), score: 9 };
    const { source, calls } = fakeSource({ keyword: [strong] });
    await runRecallEngine(source, deps().value, { query: "green tea", limit: 5, mode: "hybrid" });
    expect(calls).toEqual(["keyword:40"]);
    const partial = fakeSource({ keyword: [strong] });
    await runRecallEngine(partial.source, deps().value, { query: "green coffee", limit: 5, mode: "hybrid" });
    expect(partial.calls).toEqual(["keyword:40", "embed", "vector"]);
  });

  it("fuses keyword and vector ranks with RRF, loading rows only the vector stage found", async () => {
    const a = row(1, "alpha");
    const b = row(2, "beta");
    const { source, calls } = fakeSource({
      keyword: [{ row: a, score: 1 }],
      vector: [
        { rid: 2, similarity: 0.9 },
        { rid: 1, similarity: 0.8 },
      ],
      rows: [a, b],
    });
    const found = await runRecallEngine(source, deps().value, { query: "alpha", limit: 5, mode: "hybrid" });
    expect(keysOf(found)).toEqual(["k1", "k2"]);
    // RRF 1/61 + 1/62 (best) and 1/61, as strengths relative to the best; "alpha" covers k1 only.
    expect(found[0]?.score).toBeCloseTo(1, 12);
    expect(found[1]?.score).toBeCloseTo((0.5 * (1 / 61)) / (1 / 61 + 1 / 62), 12);
    expect(calls).toContain("rows:2");
  });

  it("uses the weighted merge when configured", async () => {
    const a = row(1, "alpha");
    const { source } = fakeSource({
      keyword: [{ row: a, score: 2 }],
      vector: [{ rid: 1, similarity: 0.5 }],
      rows: [a],
    });
    const settings = { mergeStrategy: { kind: "weighted", vectorWeight: 0.7, keywordWeight: 0.3 } as const };
    const found = await runRecallEngine(source, deps(settings).value, {
      query: "alpha",
      limit: 5,
      mode: "hybrid",
    });
    // The only merged score is the best one: strength 1, and "alpha" is covered.
    expect(found[0]?.score).toBeCloseTo(1, 12);
  });

  it("degrades to bm25 when the query cannot be embedded, warning once per reason", async () => {
    const hit = row(1, "tea");
    const failing = async () => {
      throw new MemoryError("TIMEOUT", "slow");
    };
    const { source } = fakeSource({ keyword: [{ row: hit, score: 1 }], embed: failing });
    const { value, warnings } = deps();
    const found = await runRecallEngine(source, value, { query: "tea", limit: 5, mode: "embedding" });
    expect(found).toEqual([{ row: hit, score: 1 }]);
    expect(warnings).toEqual(["query embedding failed: this recall degrades to bm25"]);
  });

  it("rethrows when the caller aborted", async () => {
    const controller = new AbortController();
    const reason = new Error("stop");
    const { source } = fakeSource({
      embed: async () => {
        controller.abort(reason);
        throw new Error("aborted");
      },
    });
    const outcome = runRecallEngine(source, deps().value, {
      query: "tea",
      limit: 5,
      mode: "embedding",
      signal: controller.signal,
    });
    await expect(outcome).rejects.toBe(reason);
  });

  it("with decayFloor 0, halves a non-core score every half-life and leaves core alone", async () => {
    const old = { updated_at: "2026-01-08T00:00:00.000Z" };
    const daily = row(1, "tea", { ...old, category: "daily" });
    const core = row(2, "tea", old);
    const { source } = fakeSource({
      keyword: [
        { row: daily, score: 1 },
        { row: core, score: 1 },
      ],
    });
    const found = await runRecallEngine(source, deps().value, { query: "tea", limit: 5, mode: "bm25" });
    expect(found).toEqual([
      { row: core, score: 1 },
      { row: daily, score: 0.5 },
    ]);
    const bounded = await runRecallEngine(
      fakeSource({ keyword: [{ row: daily, score: 1 }] }).source,
      deps({ decayFloor: 0.8 }).value,
      {
        query: "tea",
        limit: 5,
        mode: "bm25",
      },
    );
    expect(bounded[0]?.score).toBeCloseTo(0.9, 12);
  });

  it("applies minScore, then the limit", async () => {
    const hits = [4, 2, 1, 0.1].map((score, i) => ({ row: row(i + 1, "tea"), score }));
    const { source } = fakeSource({ keyword: hits });
    const found = await runRecallEngine(source, deps().value, {
      query: "tea coffee",
      limit: 2,
      mode: "bm25",
      minScore: 0.4,
    });
    // Half the terms: ½ × 0.5^1.5 ≈ 0.177, plus ½ × strength relative to the best (1, ½, ¼, …).
    const half = 0.5 * 0.5 ** 1.5;
    expect(found.map((f) => f.score)).toEqual([half + 0.5, half + 0.25]);
    const strict = await runRecallEngine(source, deps().value, {
      query: "tea coffee",
      limit: 5,
      mode: "bm25",
      minScore: 0.5,
    });
    expect(strict.map((f) => f.row.rid)).toEqual([1]);
  });

  it("falls back to LIKE only when ranked search found nothing and the mode is not bm25", async () => {
    const likeHit = { row: row(9, "teapot"), score: 1 };
    const hybrid = fakeSource({ like: [likeHit] });
    // Every keyword found: the LIKE share 1 is a full match, 0.5.
    expect(
      await runRecallEngine(hybrid.source, deps().value, { query: "tea", limit: 5, mode: "hybrid" }),
    ).toEqual([{ row: likeHit.row, score: 0.5 }]);
    expect(hybrid.calls).toEqual(["keyword:40", "embed", "vector", "like"]);
    const bm25 = fakeSource({ like: [likeHit] });
    expect(
      await runRecallEngine(bm25.source, deps().value, { query: "tea", limit: 5, mode: "bm25" }),
    ).toEqual([]);
    expect(bm25.calls).toEqual(["keyword:40"]);
  });

  it("with MMR, a near-duplicate loses to a different entry", async () => {
    const hits = [
      { row: row(1, "red apples and pears"), score: 3 },
      { row: row(2, "red apples and pears too"), score: 2.9 },
      { row: row(3, "blue sky"), score: 2.5 },
    ];
    const { source } = fakeSource({ keyword: hits });
    const settings = { mmrEnabled: true, mmrLambda: 0.5 };
    const found = await runRecallEngine(source, deps(settings).value, {
      query: "apples sky",
      limit: 2,
      mode: "bm25",
    });
    expect(keysOf(found)).toEqual(["k1", "k3"]);
  });
});

/**
 * A source whose keyword search stays pending until released, recording the order of calls, so a
 * test sees whether the vector stage began before the keyword stage ended.
 */
function concurrentSource(
  keyword: Array<{ row: RecallRow; score: number }>,
  embed?: () => Promise<Float32Array>,
) {
  const calls: string[] = [];
  let release = () => {};
  const keywordDone = new Promise<void>((resolve) => {
    release = resolve;
  });
  const rows = new Map(keyword.map((h) => [h.row.rid, h.row]));
  rows.set(2, row(2, "beta"));
  const source: RecallSource<RecallRow> = {
    concurrent: true,
    mostRecent: () => [],
    keyword: async () => {
      calls.push("keyword:start");
      await keywordDone;
      calls.push("keyword:end");
      return keyword;
    },
    embedQuery: async () => {
      calls.push("embed");
      return embed ? embed() : new Float32Array([1, 0]);
    },
    vector: () => {
      calls.push("vector");
      // The vector stage ran while the keyword search was still pending: let it end.
      release();
      return [{ rid: 2, similarity: 0.9 }];
    },
    rows: (rids) => rids.flatMap((rid) => rows.get(rid) ?? []),
    like: () => [],
  };
  return { source, calls, release: () => release() };
}

describe("runRecallEngine on a source whose searches run side by side", () => {
  it("starts the vector stage before the keyword stage ends, and fuses both", async () => {
    const { source, calls } = concurrentSource([{ row: row(1, "alpha"), score: 1 }]);
    const found = await runRecallEngine(source, deps().value, {
      query: "alpha gamma",
      limit: 5,
      mode: "hybrid",
    });
    expect(calls).toEqual(["embed", "keyword:start", "vector", "keyword:end"]);
    expect(found.map((f) => f.row.key).sort()).toEqual(["k1", "k2"]);
  });

  it("drops the vector stage's result when a strong keyword hit returns early", async () => {
    const { source, calls } = concurrentSource([{ row: row(1, "green tea"), score: 9 }]);
    const found = await runRecallEngine(source, deps().value, {
      query: "green tea",
      limit: 5,
      mode: "hybrid",
    });
    expect(found.map((f) => f.row.key)).toEqual(["k1"]);
    expect(calls).toContain("vector");
  });

  it("degrades to bm25 with one warning when the early query embedding fails", async () => {
    const warned = deps();
    const failing = concurrentSource([{ row: row(1, "alpha"), score: 1 }], async () => {
      // No vector search follows a failed embedding: the failure itself lets the keyword stage end.
      failing.release();
      throw new MemoryError("TIMEOUT", "slow");
    });
    const found = await runRecallEngine(failing.source, warned.value, {
      query: "alpha gamma",
      limit: 5,
      mode: "hybrid",
    });
    expect(found.map((f) => f.row.key)).toEqual(["k1"]);
    expect(warned.warnings).toEqual(["query embedding failed: this recall degrades to bm25"]);
  });

  it("never starts the vector stage of a keyword-only recall", async () => {
    const { source, calls, release } = concurrentSource([{ row: row(1, "alpha"), score: 1 }]);
    const outcome = runRecallEngine(source, deps().value, { query: "alpha gamma", limit: 5, mode: "bm25" });
    expect(calls).toEqual(["keyword:start"]);
    release();
    await outcome;
    expect(calls).toEqual(["keyword:start", "keyword:end"]);
  });
});
