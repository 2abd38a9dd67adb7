import { describe, expect, it } from "vitest";
import { openTestMemory } from "./test-support/temp-memory.js";

describe("recall of Chinese, Japanese and Korean text by keyword", () => {
  it("finds a Chinese word inside a sentence with no spaces", async () => {
    const memory = openTestMemory();
    await memory.store("fruit", "我喜欢吃苹果");
    await memory.store("drink", "我每天早上喝咖啡");
    expect((await memory.recall("苹果", { mode: "bm25" })).map((e) => e.key)).toEqual(["fruit"]);
    expect((await memory.recall("咖啡", { mode: "bm25" })).map((e) => e.key)).toEqual(["drink"]);
    expect((await memory.recall("喜欢吃苹果", { mode: "bm25" })).map((e) => e.key)).toEqual(["fruit"]);
  });

  it("finds a sentence-long Chinese query by its overlapping bigrams", async () => {
    const memory = openTestMemory();
    await memory.store("fruit", "我喜欢吃苹果");
    await memory.store("drink", "我每天早上喝咖啡");
    const hits = await memory.recall("我喜欢吃什么水果", { mode: "bm25" });
    expect(hits[0]?.key).toBe("fruit");
  });

  it("finds a single character by prefix", async () => {
    const memory = openTestMemory();
    await memory.store("fruit", "我喜欢吃苹果");
    expect((await memory.recall("苹", { mode: "bm25" })).map((e) => e.key)).toEqual(["fruit"]);
  });

  it("finds Japanese and Korean words", async () => {
    const memory = openTestMemory();
    await memory.store("ja", "東京の天気は晴れです");
    await memory.store("ko", "저는 서울에서 일합니다");
    await memory.store("en", "The weather in Paris is rainy");
    expect((await memory.recall("天気", { mode: "bm25" })).map((e) => e.key)).toEqual(["ja"]);
    expect((await memory.recall("서울", { mode: "bm25" })).map((e) => e.key)).toEqual(["ko"]);
  });

  it("finds mixed-script content by either part", async () => {
    const memory = openTestMemory();
    await memory.store("mixed", "项目使用TypeScript编写");
    expect((await memory.recall("typescript", { mode: "bm25" })).map((e) => e.key)).toEqual(["mixed"]);
    expect((await memory.recall("编写", { mode: "bm25" })).map((e) => e.key)).toEqual(["mixed"]);
  });

  it("keeps CJK content searchable after it is updated", async () => {
    const memory = openTestMemory();
    await memory.store("fruit", "我喜欢吃苹果");
    await memory.store("fruit", "我喜欢吃香蕉");
    expect(await memory.recall("苹果", { mode: "bm25" })).toEqual([]);
    expect((await memory.recall("香蕉", { mode: "bm25" })).map((e) => e.key)).toEqual(["fruit"]);
  });
});
