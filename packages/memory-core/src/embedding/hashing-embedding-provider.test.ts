import { createHash } from "node:crypto";
import { isMemoryError } from "@claw/memory-api";
import { describe, expect, it } from "vitest";
import { cosineSimilarity } from "../recall/vector-math.js";
import { createHashingEmbeddingProvider, fnv1a32, hashingTokens } from "./hashing-embedding-provider.js";

async function embedPair(a: string, b: string, dimensions?: number): Promise<number> {
  const provider = createHashingEmbeddingProvider(dimensions === undefined ? {} : { dimensions });
  const [va, vb] = await provider.embed([a, b]);
  return cosineSimilarity(va as Float32Array, vb as Float32Array);
}

function norm(v: Float32Array): number {
  return Math.sqrt(v.reduce((sum, x) => sum + x * x, 0));
}

describe("createHashingEmbeddingProvider", () => {
  it("has the documented defaults", () => {
    const provider = createHashingEmbeddingProvider();
    expect(provider.id).toBe("hashing");
    expect(provider.model).toBe("hashing-v1");
    expect(provider.dimensions).toBe(256);
    expect(provider.maxBatchSize).toBe(256);
  });

  it("accepts a custom id, model and dimensions", async () => {
    const provider = createHashingEmbeddingProvider({ dimensions: 64, id: "h", model: "m" });
    expect([provider.id, provider.model, provider.dimensions]).toEqual(["h", "m", 64]);
    const [v] = await provider.embed(["hello"]);
    expect(v).toHaveLength(64);
  });

  it("gives identical vectors for the same text, across calls and instances", async () => {
    const [a] = await createHashingEmbeddingProvider().embed(["The deploy script lives in ops/"]);
    const [b, c] = await createHashingEmbeddingProvider().embed([
      "The deploy script lives in ops/",
      "The deploy script lives in ops/",
    ]);
    expect(Array.from(a as Float32Array)).toEqual(Array.from(b as Float32Array));
    expect(Array.from(b as Float32Array)).toEqual(Array.from(c as Float32Array));
  });

  it("returns one unit-length vector per text, in order", async () => {
    const provider = createHashingEmbeddingProvider();
    const texts = ["alpha beta", "gamma", "delta epsilon zeta"];
    const vectors = await provider.embed(texts);
    expect(vectors).toHaveLength(3);
    for (const v of vectors) expect(norm(v)).toBeCloseTo(1, 5);
    const [single] = await provider.embed(["gamma"]);
    expect(Array.from(vectors[1] as Float32Array)).toEqual(Array.from(single as Float32Array));
  });

  it("ranks texts with shared words above texts without", async () => {
    const shared = await embedPair("the user prefers dark mode", "dark mode is preferred by the user");
    const unrelated = await embedPair("the user prefers dark mode", "quarterly revenue grew sharply");
    expect(shared).toBeGreaterThan(0.3);
    expect(shared).toBeGreaterThan(unrelated);
  });

  it("puts morphological variants closer than unrelated words via trigrams", async () => {
    // No whole word is shared, so all similarity here comes from the weight-0.5 trigrams.
    const variant = await embedPair("deployment", "deployed");
    const other = await embedPair("deployment", "banana");
    expect(variant).toBeGreaterThan(0.3);
    expect(variant).toBeGreaterThan(other + 0.2);
  });

  it("is case-insensitive", async () => {
    expect(await embedPair("Hello World", "hello world")).toBeCloseTo(1, 6);
  });

  it("treats CJK text by character bigrams, so overlapping phrases are similar", async () => {
    const overlap = await embedPair("我喜欢喝咖啡", "我喜欢喝茶");
    const disjoint = await embedPair("我喜欢喝咖啡", "东京塔很高");
    expect(overlap).toBeGreaterThan(0.5);
    expect(overlap).toBeGreaterThan(disjoint);
  });

  it("gives the zero vector for empty or token-free text", async () => {
    const [empty, punctuation] = await createHashingEmbeddingProvider({ dimensions: 8 }).embed(["", " ?!… "]);
    expect(Array.from(empty as Float32Array)).toEqual(new Array(8).fill(0));
    expect(Array.from(punctuation as Float32Array)).toEqual(new Array(8).fill(0));
  });

  it("gives vectors of the configured length for different dimensions", async () => {
    const [small] = await createHashingEmbeddingProvider({ dimensions: 32 }).embed(["same text"]);
    const [large] = await createHashingEmbeddingProvider({ dimensions: 1024 }).embed(["same text"]);
    expect(small).toHaveLength(32);
    expect(large).toHaveLength(1024);
  });

  it("embeds queries and documents identically", async () => {
    const provider = createHashingEmbeddingProvider();
    const [q] = await provider.embed(["memory"], { purpose: "query" });
    const [d] = await provider.embed(["memory"], { purpose: "document" });
    expect(Array.from(q as Float32Array)).toEqual(Array.from(d as Float32Array));
  });

  it("rejects with the signal's reason when already aborted", async () => {
    const controller = new AbortController();
    const reason = new Error("caller gave up");
    controller.abort(reason);
    await expect(createHashingEmbeddingProvider().embed(["x"], { signal: controller.signal })).rejects.toBe(
      reason,
    );
  });

  it("rejects invalid dimensions as INVALID_INPUT", () => {
    for (const dimensions of [0, -3, 1.5, Number.NaN]) {
      try {
        createHashingEmbeddingProvider({ dimensions });
        expect.unreachable();
      } catch (err) {
        expect(isMemoryError(err, "INVALID_INPUT")).toBe(true);
        expect((err as { field?: string }).field).toBe("dimensions");
      }
    }
  });
});

describe("hashing vectors stay the vectors already stored", () => {
  // Stored vectors carry the provider's id and model ("hashing-v1"), not a version of its code: a
  // change of a single float would leave stores with vectors their queries no longer match. The
  // digest was taken from the first implementation (TextEncoder per feature) on these texts.
  const texts = [
    "The deploy script lives in ops/",
    "Café-au-lait, naïve_ÜBER v2.0!",
    "我喜欢喝咖啡，用TypeScript写代码",
    "emoji 🎉 party🎉time 𝔘𝔫𝔦𝔠𝔬𝔡𝔢",
    "don't stop — it’s fine",
    "ﬁle ① Ⅻ ｆｕｌｌｗｉｄｔｈ",
    "lone \uD800 surrogate a\uDC00b",
    "Ελληνικά κείμενα και русский текст",
    "עברית עם ניקוד",
    "x",
    "",
    "   ",
    "日本語のテキストと한국어",
    `${"a".repeat(300)} tail`,
    "mixed123numbers 42 3.14 x86_64",
  ];

  it("gives bit-identical vectors across Unicode, CJK, astral and lone-surrogate text", async () => {
    const digest = createHash("sha256");
    for (const dimensions of [64, 256, 7]) {
      for (const v of await createHashingEmbeddingProvider({ dimensions }).embed(texts)) {
        digest.update(Buffer.from(v.buffer));
      }
    }
    expect(digest.digest("hex")).toBe("70aafcccf9175c4359dbf19cc85c0d54a08e636c80fa5336387faed1572057d6");
  });

  it("hashes UTF-8 bytes as TextEncoder gives them (a lone surrogate as U+FFFD)", () => {
    expect(fnv1a32("🎉é中")).toBe(1791339492);
    expect(fnv1a32("a\uD800b")).toBe(1982953453);
    expect(fnv1a32("a\uD800b")).toBe(fnv1a32("a\uFFFDb"));
  });
});

describe("hashingTokens", () => {
  it("lowercases and splits on anything that is not a letter or number (Unicode-aware)", () => {
    expect(hashingTokens("Hello, WORLD")).toEqual(["hello", "world"]);
    expect(hashingTokens("Café-au-lait, naïve_ÜBER v2.0!")).toEqual([
      "café",
      "au",
      "lait",
      "naïve",
      "über",
      "v2",
      "0",
    ]);
  });

  it("splits CJK runs into overlapping bigrams and keeps adjacent Latin text as words", () => {
    expect(hashingTokens("东京塔")).toEqual(["东京", "京塔"]);
    expect(hashingTokens("用TypeScript写代码")).toEqual(["用", "typescript", "写代", "代码"]);
    expect(hashingTokens("猫")).toEqual(["猫"]);
  });
});

describe("fnv1a32", () => {
  it("matches the reference FNV-1a 32-bit test vectors", () => {
    expect(fnv1a32("")).toBe(0x811c9dc5);
    expect(fnv1a32("a")).toBe(0xe40c292c);
    expect(fnv1a32("foobar")).toBe(0xbf9cf968);
  });
});
