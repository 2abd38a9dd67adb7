import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TINY_VECTORS, winkJson } from "./test-support/wink-fixture.js";
import { readWinkVectors, WinkVectorParser } from "./wink-vectors-reader.js";
import type { WordVectorTable } from "./word-vector-table.js";

function parse(text: string, pieceLength = text.length, keep?: (word: string) => boolean): WordVectorTable {
  const parser = new WinkVectorParser("fixture.json", keep ? { keep } : {});
  for (let i = 0; i < text.length; i += pieceLength) parser.push(text.slice(i, i + pieceLength));
  return parser.end();
}

describe("WinkVectorParser", () => {
  const json = winkJson(TINY_VECTORS);

  it("keeps each vector's first `dimensions` values and drops its norm and index", () => {
    const table = parse(json);
    expect(table.dimensions).toBe(3);
    expect(table.words).toEqual(["the", "dog", "puppy", "greyhound", "car", "canoe", "pizza", ","]);
    expect([...table.data.subarray(3, 6)]).toEqual([1, Math.fround(0.1), 0]);
    expect(table.data).toHaveLength(8 * 3);
  });

  it("reads the same table however the text is cut into pieces", () => {
    const whole = parse(json);
    for (const piece of [1, 2, 3, 7, 64, 1000]) {
      const cut = parse(json, piece);
      expect(cut.words, `pieces of ${piece}`).toEqual(whole.words);
      expect([...cut.data], `pieces of ${piece}`).toEqual([...whole.data]);
    }
  });

  it("unescapes and lower-cases words; the first of two spellings wins", () => {
    const table = parse(winkJson({ '"': [1, 1], Paris: [2, 2], paris: [3, 3], "caf\u00e9": [4, 4] }));
    expect(table.words).toEqual(['"', "paris", "café"]);
    expect([...table.data]).toEqual([1, 1, 2, 2, 4, 4]);
  });

  it("keeps only the words the filter accepts", () => {
    const table = parse(json, json.length, (w) => /^[a-z]+$/.test(w));
    expect(table.words).not.toContain(",");
    expect(table.words).toHaveLength(7);
  });

  it("says what is wrong with a truncated or malformed file", () => {
    expect(() => parse(json.slice(0, json.lastIndexOf('"car"') + 10))).toThrow(
      "fixture.json: ends inside vectors",
    );
    expect(() => parse('{"dimensions":3,"words":[]}')).toThrow('fixture.json: has no "vectors" object');
    expect(() => parse('{"vectors":{"a":[1,2]}}')).toThrow('"vectors" comes before "dimensions"');
    expect(() => parse('{"dimensions":3,"vectors":{"a":[1,2]}}')).toThrow(
      'the vector of "a" does not start with 3 numbers',
    );
    expect(() => parse('{"dimensions":2,"vectors":{"a":[1,"x"]}}')).toThrow(
      'the vector of "a" does not start with 2 numbers',
    );
    // Text that never forms a member is not buffered without bound.
    const garbage = `{"dimensions":2,"vectors":{${"x".repeat((1 << 20) + 1)}`;
    expect(() => parse(garbage, 4096)).toThrow('fixture.json: cannot parse near "xxx');
  });
});

describe("readWinkVectors", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "wink-reader-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("streams a file into the same table as the parser", async () => {
    const path = join(dir, "vectors.json");
    await writeFile(path, winkJson(TINY_VECTORS));
    const table = await readWinkVectors(path);
    expect(table.words).toEqual(parse(winkJson(TINY_VECTORS)).words);
    expect(table.data[table.words.indexOf("pizza") * 3 + 2]).toBe(1);
  });
});
