import type { EmbeddingProvider } from "@claw/memory-api";
import { isMemoryError } from "@claw/memory-api";
import { describe, expect, it } from "vitest";
import { clipText, maxInputChars, requestEmbeddings, tokenBudgetBatches } from "./provider-request.js";

function provider(
  embed: EmbeddingProvider["embed"],
  extra: Partial<EmbeddingProvider> = {},
): EmbeddingProvider {
  return { id: "fake", model: "m", dimensions: 2, embed, ...extra };
}

describe("tokenBudgetBatches", () => {
  const items = (lengths: number[]) => lengths.map((n, i) => ({ id: i, content: "x".repeat(n) }));
  const ids = (batches: Iterable<Array<{ id: number }>>) => [...batches].map((b) => b.map((i) => i.id));

  it("cuts at the count limit and at the token budget (4 characters a token)", () => {
    expect(
      ids(tokenBudgetBatches(items([4, 4, 4]), { maxCount: 2, batchTokens: 100, maxChars: 400 })),
    ).toEqual([[0, 1], [2]]);
    expect(
      ids(tokenBudgetBatches(items([40, 40, 4]), { maxCount: 9, batchTokens: 15, maxChars: 400 })),
    ).toEqual([[0], [1, 2]]);
  });

  it("sends a text over the budget alone, counted at its clipped length", () => {
    const batches = ids(tokenBudgetBatches(items([4000, 4]), { maxCount: 9, batchTokens: 10, maxChars: 40 }));
    expect(batches).toEqual([[0], [1]]);
  });
});

describe("clipText and maxInputChars", () => {
  it("clips to the provider's input limit, else to the batch budget", () => {
    expect(
      maxInputChars(
        provider(async () => []),
        100,
      ),
    ).toBe(400);
    expect(
      maxInputChars(
        provider(async () => [], { maxInputTokens: 3 }),
        100,
      ),
    ).toBe(12);
    expect(clipText("abcdef", 4)).toBe("abcd");
    expect(clipText("ab", 4)).toBe("ab");
  });
});

describe("requestEmbeddings", () => {
  it("passes the purpose and returns the vectors", async () => {
    let purpose: string | undefined;
    const p = provider(async (texts, options) => {
      purpose = options?.purpose;
      return texts.map(() => new Float32Array([1, 0]));
    });
    expect(await requestEmbeddings(p, ["a", "b"], "query", 1000)).toEqual([
      new Float32Array([1, 0]),
      new Float32Array([1, 0]),
    ]);
    expect(purpose).toBe("query");
  });

  it("rejects a wrong number of vectors or wrong dimensions with PROVIDER", async () => {
    const short = provider(async () => [new Float32Array([1, 0])]);
    const wide = provider(async (texts) => texts.map(() => new Float32Array(3)));
    const a = await requestEmbeddings(short, ["a", "b"], "document", 1000).catch((e: unknown) => e);
    const b = await requestEmbeddings(wide, ["a"], "document", 1000).catch((e: unknown) => e);
    expect(isMemoryError(a, "PROVIDER") && a.message).toBe(
      "embedding provider fake returned 1 vectors for 2 texts",
    );
    expect(isMemoryError(b, "PROVIDER") && b.message).toBe(
      "embedding provider fake returned 3 dimensions, expected 2",
    );
  });

  it("gives up after timeoutMs with TIMEOUT even when the provider ignores its signal", async () => {
    const never = provider(() => new Promise<Float32Array[]>(() => {}));
    const error = await requestEmbeddings(never, ["a"], "document", 5).catch((e: unknown) => e);
    expect(isMemoryError(error, "TIMEOUT") && error.message).toBe(
      "embedding provider fake did not answer within 5 ms",
    );
  });
});
