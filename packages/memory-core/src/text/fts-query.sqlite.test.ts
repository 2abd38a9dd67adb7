import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildFtsQuery } from "./fts-query.js";
import { toFtsIndexText } from "./tokenizer.js";

// The same tokenizer as the memory store's FTS5 table.
const ROWS = [
  "he runs daily",
  "I love苹果pie",
  "我喜欢吃苹果",
  "東京のラーメンが好き",
  "この件は問題ないようです",
  "나는 사과를 좋아해요",
  "Deployment of the café service",
  "I do not like coffee",
  "col x and NEAR stuff",
  "ｶﾞｲﾄﾞ book",
];

let db: Database.Database;

function search(query: string, options?: { prefix?: boolean }): string[] {
  const match = buildFtsQuery(query, options);
  if (match === null) return [];
  const rows = db.prepare("SELECT content FROM docs JOIN t ON t.rowid = docs.id WHERE t MATCH ?").all(match);
  return (rows as { content: string }[]).map((row) => row.content).sort();
}

beforeAll(() => {
  db = new Database(":memory:");
  db.exec(`
    CREATE TABLE docs (id INTEGER PRIMARY KEY, content TEXT NOT NULL);
    CREATE VIRTUAL TABLE t USING fts5(body, tokenize='porter unicode61 remove_diacritics 2');
  `);
  const insertDoc = db.prepare("INSERT INTO docs (id, content) VALUES (?, ?)");
  const insertFts = db.prepare("INSERT INTO t (rowid, body) VALUES (?, ?)");
  ROWS.forEach((content, index) => {
    insertDoc.run(index + 1, content);
    insertFts.run(index + 1, toFtsIndexText(content) ?? content);
  });
});

afterAll(() => {
  db.close();
});

describe("buildFtsQuery against a real FTS5 table", () => {
  const hostile = [
    '"',
    '""',
    "a AND",
    "AND",
    "OR OR",
    "NOT",
    "NEAR(",
    "NEAR(col x, 3)",
    "col:x",
    "body:secret",
    "{body}: x",
    "*",
    "x*",
    "^",
    "^x",
    "(((",
    ")))",
    "-x +y",
    "'); DROP TABLE memories; --",
    "a\u0000b",
    "\u0000",
    'x" OR "1"="1',
    "\\",
    "%_%",
  ];

  it.each(hostile)("never throws for %j", (query) => {
    expect(() => search(query)).not.toThrow();
    expect(() => search(query, { prefix: true })).not.toThrow();
  });

  it("treats FTS5 operators as words", () => {
    expect(search("NEAR(col x, 3)")).toEqual(["col x and NEAR stuff"]);
  });

  it("finds a Chinese word inside a sentence", () => {
    expect(search("苹果")).toEqual(["I love苹果pie", "我喜欢吃苹果"]);
  });

  it("finds a longer Chinese phrase only where it occurs", () => {
    expect(search("喜欢吃")).toEqual(["我喜欢吃苹果"]);
  });

  it("finds a single CJK character by prefix", () => {
    expect(search("苹")).toEqual(["I love苹果pie", "我喜欢吃苹果"]);
  });

  it("finds Japanese kana through bigrams", () => {
    expect(search("ないよう")).toEqual(["この件は問題ないようです"]);
    expect(search("ラーメン")).toEqual(["東京のラーメンが好き"]);
  });

  it("finds Japanese after NFKC on both sides", () => {
    expect(search("ガイド")).toEqual(["ｶﾞｲﾄﾞ book"]);
  });

  it("finds a Korean word without its particle", () => {
    expect(search("사과")).toEqual(["나는 사과를 좋아해요"]);
  });

  it("stems English with porter", () => {
    expect(search("running")).toEqual(["he runs daily"]);
  });

  it("ignores diacritics", () => {
    expect(search("cafe")).toEqual(["Deployment of the café service"]);
  });

  it("matches partial words with the prefix option", () => {
    expect(search("deplo")).toEqual([]);
    expect(search("deplo", { prefix: true })).toEqual(["Deployment of the café service"]);
  });

  it("searches for negations", () => {
    expect(search("not")).toEqual(["I do not like coffee"]);
  });

  it("finds nothing rather than everything for unknown words", () => {
    expect(search("zebra")).toEqual([]);
  });
});
