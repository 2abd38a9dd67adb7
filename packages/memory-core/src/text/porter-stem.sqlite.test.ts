import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { porterStem } from "./porter-stem.js";

/** FTS5's stem of every word, read back from the vocabulary of a porter-tokenized table. */
function fts5Stems(words: readonly string[]): string[] {
  const db = new Database(":memory:");
  try {
    db.exec("CREATE VIRTUAL TABLE t USING fts5(x, tokenize='porter unicode61 remove_diacritics 2')");
    db.exec("CREATE VIRTUAL TABLE v USING fts5vocab(t, instance)");
    const insert = db.prepare("INSERT INTO t(rowid, x) VALUES (?, ?)");
    db.transaction(() => {
      for (const [i, word] of words.entries()) insert.run(i + 1, word);
    })();
    const byRow = new Map(db.prepare("SELECT doc, term FROM v").raw().all() as Array<[number, string]>);
    return words.map((_, i) => byRow.get(i + 1) ?? "");
  } finally {
    db.close();
  }
}

const BASES = `run hope hop fizz agree feed bleed plaster conflate trouble size fail file happy sky
  relate condition rational valence hesitance digitize conform radical differ analog vietnam
  sensible general electric hope formal sensitive callous revive triplicate formalize
  electricity hopeful good adjust depend adopt homolog commun activ bowdler effect replac
  generous irritant dependent communism bowdlerize control roll cease controll meet meeting
  sing sky dying lying tying news innings outing canning proceed exceed succeed mess caress
  ponies ties cats deploy deployment user project family travel painting adoption`;

const SUFFIXES = `ational tional enci anci izer logi bli alli entli eli ousli ization ation ator alism
  iveness fulness ousness aliti iviti biliti icate ative alize iciti ical ful ness al ance ence er
  ic able ible ant ement ment ent sion tion ion ou ism ate iti ous ive ize sses ies ss s eed ed
  ing y e ll ated bled ized ping`;

function words(list: string): string[] {
  return list.split(/\s+/).filter((w) => w !== "");
}

/** Seeded pseudo-words over an English-like alphabet, to reach rules no listed word reaches. */
function randomWords(count: number, seed: number): string[] {
  let state = seed >>> 0;
  const next = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 4294967296;
  };
  const letters = "eeeaaiioouuyyssttnnrrllddggbbccmmppwwxzvfkh";
  return Array.from({ length: count }, () => {
    const length = 1 + Math.floor(next() * 12);
    let word = "";
    for (let i = 0; i < length; i++) word += letters.charAt(Math.floor(next() * letters.length));
    return word;
  });
}

describe("porterStem", () => {
  it("stems every word as FTS5's porter tokenizer does", () => {
    const bases = words(BASES);
    const all = [
      ...new Set([
        ...bases,
        ...bases.flatMap((base) => words(SUFFIXES).map((suffix) => base + suffix)),
        ...randomWords(20_000, 7),
      ]),
    ];
    const expected = fts5Stems(all);
    const mismatches = all.filter((word, i) => porterStem(word) !== expected[i]);
    expect(all.length).toBeGreaterThan(10_000);
    expect(mismatches).toEqual([]);
  });

  it("leaves short, long and non-ASCII words unchanged", () => {
    expect(porterStem("is")).toBe("is");
    expect(porterStem("café")).toBe("café");
    expect(porterStem("a".repeat(65))).toBe("a".repeat(65));
    expect(porterStem("running")).toBe("run");
    expect(porterStem("relational")).toBe("relat");
  });
});
