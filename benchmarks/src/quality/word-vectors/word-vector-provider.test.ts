import { describe, expect, it } from "vitest";
import { TINY_VECTORS } from "./test-support/wink-fixture.js";
import {
  averageOf,
  createWordVectorProvider,
  EMPTY_TEXT_COMPONENT,
  wordTokens,
} from "./word-vector-provider.js";

const vectors = new Map(Object.entries(TINY_VECTORS).map(([w, v]) => [w, new Float32Array(v)]));
const provider = createWordVectorProvider(vectors, 3);

const cosine = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * (b[i] as number), 0);
const norm = (v: Float32Array) => Math.sqrt(cosine(v, v));

async function embedOne(text: string): Promise<Float32Array> {
  const [vector] = await provider.embed([text]);
  return vector as Float32Array;
}

describe("wordTokens", () => {
  it("lower-cases runs of letters and digits and splits at everything else", () => {
    expect(wordTokens("Caroline's DOG, 2 puppies—café!")).toEqual([
      "caroline",
      "s",
      "dog",
      "2",
      "puppies",
      "café",
    ]);
    expect(wordTokens("  ?! ")).toEqual([]);
  });
});

describe("the word-vector provider", () => {
  it("describes itself", () => {
    expect(provider).toMatchObject({ id: "wordvec", model: "averaged-word-vectors", dimensions: 3 });
    expect(createWordVectorProvider(vectors, 3, { id: "w", model: "m" })).toMatchObject({
      id: "w",
      model: "m",
    });
  });

  it("averages the vectors of the known words and normalises the mean", async () => {
    const v = await embedOne("The DOG and the zebra");
    // the ×2 + dog = (1.2, 0.3, 0.2); "and" and "zebra" are unknown.
    const expected = [1.2, 0.3, 0.2].map((x) => x / Math.sqrt(1.44 + 0.09 + 0.04));
    expect([...v].map((x) => Number(x.toFixed(5)))).toEqual(expected.map((x) => Number(x.toFixed(5))));
    expect(norm(v)).toBeCloseTo(1, 6);
  });

  it("puts texts about the same thing closer than texts about different things", async () => {
    const puppy = await embedOne("my puppy");
    expect(cosine(puppy, await embedOne("the greyhound"))).toBeGreaterThan(0.95);
    expect(cosine(puppy, await embedOne("a canoe"))).toBeLessThan(0.35);
    expect(cosine(puppy, await embedOne("pizza"))).toBeLessThan(0.1);
  });

  it("gives a text without a known word a tiny constant vector, so its cosine is defined", async () => {
    for (const text of ["", "zebra quokka", "!!!"]) {
      const v = await embedOne(text);
      expect([...v]).toEqual(
        [EMPTY_TEXT_COMPONENT, EMPTY_TEXT_COMPONENT, EMPTY_TEXT_COMPONENT].map(Math.fround),
      );
      expect(norm(v)).toBeGreaterThan(0);
    }
  });

  it("gives the constant vector when the known words cancel out", () => {
    const opposite = new Map([
      ["up", new Float32Array([1, 0])],
      ["down", new Float32Array([-1, 0])],
    ]);
    expect([...averageOf(opposite, ["up", "down"], 2)]).toEqual(
      [EMPTY_TEXT_COMPONENT, EMPTY_TEXT_COMPONENT].map(Math.fround),
    );
  });

  it("embeds a batch in input order and honours an aborted signal", async () => {
    const [a, b] = await provider.embed(["pizza", "car"]);
    expect([...(a ?? [])]).toEqual([0, 0, 1]);
    expect([...(b ?? [])]).toEqual([0, 1, 0]);
    const controller = new AbortController();
    controller.abort(new Error("stop"));
    await expect(provider.embed(["dog"], { signal: controller.signal })).rejects.toThrow("stop");
  });

  it("refuses vectors of another length than the dimensions given", () => {
    expect(() => createWordVectorProvider(vectors, 4)).toThrow('"the" has 3 values, expected 4');
    expect(() => createWordVectorProvider(vectors, 0)).toThrow("dimensions must be an integer >= 1");
  });
});
