import { describe, expect, it } from "vitest";
import { byCoverage, stemOf, termCoverage } from "./term-coverage.js";

const row = (rid: number, content: string) => ({ rid, key: `k${rid}`, content });

describe("termCoverage", () => {
  it("is the share of terms found in key or content, case- and width-insensitively", () => {
    expect(termCoverage(row(1, "Ｇreen TEA"), ["green", "tea", "milk"])).toBeCloseTo(2 / 3, 12);
    expect(termCoverage({ key: "milk", content: "" }, ["milk"])).toBe(1);
    expect(termCoverage(row(1, "anything"), [])).toBe(0);
  });
});

describe("termCoverage by words and stems", () => {
  it("counts whole words only: a long entry gains nothing from words that contain a term", () => {
    expect(termCoverage(row(1, "We started the party"), ["art", "party"])).toBe(0.5);
  });

  it("meets the forms a question and an answer use of one word", () => {
    expect(
      termCoverage(row(1, "She painted two studies of racing boats"), ["painting", "study", "race", "boat"]),
    ).toBe(1);
    expect(termCoverage(row(1, "He runs every morning"), ["running"])).toBe(1);
  });

  it("counts the terms of one passage of a long entry, not terms scattered over all of it", () => {
    const filler = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(" ");
    const terms = ["deadline", "launch", "march"];
    // All three within 100 words: full coverage.
    expect(
      termCoverage(row(1, `${filler(300)} deadline for the launch is march ${filler(300)}`), terms),
    ).toBe(1);
    // Each 150 words from the next: one passage holds one of them.
    const scattered = `deadline ${filler(150)} launch ${filler(150)} march`;
    expect(termCoverage(row(2, scattered), terms)).toBeCloseTo(1 / 3, 12);
    // 99 words apart share a passage; 100 apart do not.
    expect(termCoverage(row(3, `deadline ${filler(98)} launch ${filler(200)}`), terms)).toBeCloseTo(
      2 / 3,
      12,
    );
    expect(termCoverage(row(4, `deadline ${filler(99)} launch ${filler(200)}`), terms)).toBeCloseTo(
      1 / 3,
      12,
    );
  });

  it("counts two query terms of one stem once each within a passage, as over a short entry", () => {
    const long = `${"filler ".repeat(120)}the dogs we adopted from the shelter`;
    const terms = ["dogs", "dog", "adopted", "cats"];
    expect(termCoverage(row(1, long), terms)).toBe(0.75);
    expect(termCoverage(row(2, "the dogs we adopted from the shelter"), terms)).toBe(0.75);
  });

  it("finds a one-letter term cut from a contraction alike in short and long entries", () => {
    const terms = ["i", "deadline"];
    expect(termCoverage(row(1, "I'm moving the deadline"), terms)).toBe(1);
    expect(termCoverage(row(2, `I'm moving the deadline ${"filler ".repeat(120)}`), terms)).toBe(1);
    expect(termCoverage(row(3, "I’m moving the deadline, café"), terms)).toBe(1);
  });

  it("counts the terms of a non-ASCII long entry by passage too", () => {
    const long = `café ${"mot ".repeat(150)}thé ${"mot ".repeat(150)}`;
    expect(termCoverage(row(1, long), ["café", "thé"])).toBe(0.5);
    expect(termCoverage(row(2, `café et thé ${"mot ".repeat(150)}`), ["café", "thé"])).toBe(1);
  });

  it("finds CJK terms as substrings", () => {
    expect(termCoverage(row(1, "我喜欢喝咖啡"), ["咖啡", "茶"])).toBe(0.5);
  });
});

describe("stemOf", () => {
  it.each([
    ["running", "run"],
    ["runs", "run"],
    ["studies", "studi"],
    ["studied", "studi"],
    ["study", "studi"],
    ["racing", "rac"],
    ["race", "rac"],
    ["boxes", "box"],
    ["class", "class"],
    ["don't", "don"],
    ["go", "go"],
  ])("%s → %s", (word, stem) => {
    expect(stemOf(word)).toBe(stem);
  });
});

describe("byCoverage", () => {
  it("scales by coverage^0.75 so an entry answering more of the query ranks first", () => {
    const hits = [
      { row: row(1, "tea tea tea"), score: 4 },
      { row: row(2, "green tea"), score: 3 },
    ];
    const ranked = byCoverage(hits, ["green", "tea"]);
    expect(ranked.map((h) => h.row.rid)).toEqual([2, 1]);
    expect(ranked[1]?.score).toBeCloseTo(4 * 0.5 ** 0.75, 12);
  });

  it("leaves a one-term query as it is", () => {
    const hits = [{ row: row(1, "tea"), score: 4 }];
    expect(byCoverage(hits, ["tea"])).toEqual(hits);
  });
});

describe("termCoverage on ASCII text", () => {
  it("finds a stem at the start, the end and after punctuation, never inside a word", () => {
    const cover = (content: string, terms: string[]) => termCoverage({ key: "", content }, terms);
    expect(cover("runs.", ["running"])).toBe(1);
    expect(cover("(racing) boats", ["race", "boat"])).toBe(1);
    expect(cover("outrun the restart", ["run", "start"])).toBe(0);
    expect(cover("don't panic", ["don't"])).toBe(1);
    expect(cover("plain ascii", ["咖啡"])).toBe(0);
    expect(cover("plain ascii", [""])).toBe(0);
  });
});
