import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { escapeLike, extractLikeKeywords, likePattern } from "./like-keywords.js";

describe("extractLikeKeywords", () => {
  it("keeps unique non-stop tokens in query order", () => {
    expect(extractLikeKeywords("What is the deploy plan for the deploy team?")).toEqual([
      "deploy",
      "plan",
      "team",
    ]);
  });

  it("keeps at most max keywords, 8 by default", () => {
    const query = "k1 k2 k3 k4 k5 k6 k7 k8 k9 k10";
    expect(extractLikeKeywords(query)).toEqual(["k1", "k2", "k3", "k4", "k5", "k6", "k7", "k8"]);
    expect(extractLikeKeywords(query, 3)).toEqual(["k1", "k2", "k3"]);
  });

  it("keeps stop words when there is nothing else", () => {
    expect(extractLikeKeywords("who is it")).toEqual(["who", "is", "it"]);
  });

  it("keeps CJK runs whole, since LIKE matches substrings", () => {
    expect(extractLikeKeywords("我喜欢 苹果")).toEqual(["我喜欢", "苹果"]);
  });

  it("returns nothing for punctuation", () => {
    expect(extractLikeKeywords("%%% ___ \\\\")).toEqual([]);
  });

  it("rejects a max that is not a positive integer", () => {
    expect(() => extractLikeKeywords("x", 0)).toThrow(/^max:/);
  });
});

describe("escapeLike", () => {
  it.each([
    ["plain", "plain"],
    ["100%", "100\\%"],
    ["snake_case", "snake\\_case"],
    ["back\\slash", "back\\\\slash"],
    ["%_\\", "\\%\\_\\\\"],
    ["", ""],
  ])("%j → %j", (input, expected) => {
    expect(escapeLike(input)).toBe(expected);
  });
});

describe("likePattern in SQLite", () => {
  const db = new Database(":memory:");
  db.exec("CREATE TABLE m (content TEXT)");
  const insert = db.prepare("INSERT INTO m (content) VALUES (?)");
  for (const content of [
    "growth 100% yoy",
    "growth 1000 yoy",
    "snake_case name",
    "snakeXcase name",
    "a\\b",
  ]) {
    insert.run(content);
  }
  const find = (term: string): string[] =>
    (
      db.prepare("SELECT content FROM m WHERE content LIKE ? ESCAPE '\\'").all(likePattern(term)) as {
        content: string;
      }[]
    ).map((row) => row.content);

  it("wraps the term in %", () => {
    expect(likePattern("x_y")).toBe("%x\\_y%");
  });

  it("matches % and _ literally", () => {
    expect(find("100%")).toEqual(["growth 100% yoy"]);
    expect(find("snake_case")).toEqual(["snake_case name"]);
  });

  it("matches a backslash literally", () => {
    expect(find("a\\b")).toEqual(["a\\b"]);
  });
});
