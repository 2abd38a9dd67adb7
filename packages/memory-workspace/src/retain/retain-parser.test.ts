import { describe, expect, it } from "vitest";
import { formatFactContent, mentionsOf, parseFactContent, parseTypedBullet } from "./fact-format.js";
import { parseRetainSections } from "./retain-parser.js";

describe("parseRetainSections", () => {
  it("reads typed bullets with kinds, entities and confidence from an English Retain section", () => {
    const text = [
      "# 2026-11-20",
      "",
      "Long narrative about the day.",
      "",
      "## Retain",
      "- W @Alice works at Acme",
      "- B I reviewed the warelay pull request with @Bob",
      "- O(c=0.7) @Bob prefers Rust",
      "* S: the release went out on time",
      "- a plain bullet without a type",
      "",
      "## Notes",
      "- W not retained: another section",
    ].join("\n");

    expect(parseRetainSections(text)).toEqual({
      facts: [
        { kind: "world", text: "@Alice works at Acme", entities: ["Alice"], startLine: 6, endLine: 6 },
        {
          kind: "experience",
          text: "I reviewed the warelay pull request with @Bob",
          entities: ["Bob"],
          startLine: 7,
          endLine: 7,
        },
        {
          kind: "opinion",
          text: "@Bob prefers Rust",
          entities: ["Bob"],
          confidence: 0.7,
          startLine: 8,
          endLine: 8,
        },
        { kind: "observation", text: "the release went out on time", entities: [], startLine: 9, endLine: 9 },
      ],
      untyped: [10],
    });
  });

  it("reads a Chinese 保留 section with Chinese entity names and full-width brackets", () => {
    const text = [
      "## 保留：",
      "- W @张三 在 杭州 工作",
      "- O（c=0.9）@李四 喜欢 PostgreSQL",
      "- S：迁移计划已经确定",
    ].join("\n");

    expect(parseRetainSections(text).facts).toEqual([
      { kind: "world", text: "@张三 在 杭州 工作", entities: ["张三"], startLine: 2, endLine: 2 },
      {
        kind: "opinion",
        text: "@李四 喜欢 PostgreSQL",
        entities: ["李四"],
        confidence: 0.9,
        startLine: 3,
        endLine: 3,
      },
      { kind: "observation", text: "迁移计划已经确定", entities: [], startLine: 4, endLine: 4 },
    ]);
  });

  it("joins indented continuation lines to their bullet and extends its line range", () => {
    const text = [
      "### Retain",
      "- W @Alice moved to Berlin",
      "  in March, after the reorg",
      "- W @Bob stayed",
    ].join("\n");

    expect(parseRetainSections(text).facts).toEqual([
      {
        kind: "world",
        text: "@Alice moved to Berlin in March, after the reorg",
        entities: ["Alice"],
        startLine: 2,
        endLine: 3,
      },
      { kind: "world", text: "@Bob stayed", entities: ["Bob"], startLine: 4, endLine: 4 },
    ]);
  });

  it("keeps deeper headings inside the section and ignores fenced code", () => {
    const text = [
      "## Retain",
      "### People",
      "- W @Alice likes tea",
      "```",
      "## Retain",
      "- W @Nobody in code",
      "```",
      "- W @Carol likes coffee",
      "# Next day",
      "- W @Dave is outside",
    ].join("\n");

    expect(parseRetainSections(text).facts.map((f) => f.entities[0])).toEqual(["Alice", "Carol"]);
  });

  it("keeps a fact whose confidence is not a number in 0..1, without a confidence", () => {
    expect(parseRetainSections("## Retain\n- O(c=1.5) @Bob prefers Go").facts).toEqual([
      {
        kind: "opinion",
        text: "@Bob prefers Go",
        entities: ["Bob"],
        badConfidence: "1.5",
        startLine: 2,
        endLine: 2,
      },
    ]);
  });

  it("finds nothing in a file without a Retain section", () => {
    expect(parseRetainSections("# Day\n- W @Alice is here\n")).toEqual({ facts: [], untyped: [] });
  });
});

describe("typed bullets and fact content", () => {
  it("does not read ordinary bullets starting with a capital W, B, O or S as facts", () => {
    for (const line of ["- World peace", "- Bob arrived", "- OK then", "- Status: green", "- W"]) {
      expect(parseTypedBullet(line)).toBeNull();
    }
  });

  it("round-trips the content a fact is stored with", () => {
    const statement = parseTypedBullet("- O(c=0.25): @Bob prefers Rust") as NonNullable<
      ReturnType<typeof parseTypedBullet>
    >;
    const content = formatFactContent(statement);
    expect(content).toBe("O(c=0.25) @Bob prefers Rust");
    expect(parseFactContent(content)).toEqual({
      kind: "opinion",
      text: "@Bob prefers Rust",
      confidence: 0.25,
    });
    expect(formatFactContent({ kind: "experience", text: "shipped" })).toBe("B shipped");
  });

  it("finds @mentions in any script, once each, and not inside e-mail addresses", () => {
    expect(
      mentionsOf("@Alice met @bob and @ALICE at @The-Castle. Mail bob@example.com, ask @张三，@Zoë_2!"),
    ).toEqual(["Alice", "bob", "The-Castle", "张三", "Zoë_2"]);
  });
});
