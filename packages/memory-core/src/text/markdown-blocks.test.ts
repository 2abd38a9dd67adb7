import { describe, expect, it } from "vitest";
import {
  createFenceTracker,
  isAtxHeading,
  splitLines,
  splitParagraphs,
  splitSections,
} from "./markdown-blocks.js";

const texts = (lines: { text: string }[]): string[] => lines.map((line) => line.text);

describe("splitLines", () => {
  it("numbers lines from 1 and strips CR", () => {
    expect(splitLines("a\r\nb\n\nc")).toEqual([
      { text: "a", no: 1 },
      { text: "b", no: 2 },
      { text: "", no: 3 },
      { text: "c", no: 4 },
    ]);
  });
});

describe("isAtxHeading", () => {
  it.each([
    ["# A", true],
    ["###### Six", true],
    ["#", true],
    ["## ", true],
    ["   # three spaces", true],
    ["#\tTab", true],
    ["####### seven", false],
    ["#tag", false],
    ["    # code", false],
    ["text # not", false],
  ])("%j → %s", (line, expected) => {
    expect(isAtxHeading(line)).toBe(expected);
  });
});

describe("createFenceTracker", () => {
  it("marks fence delimiters and their content", () => {
    const inFence = createFenceTracker();
    expect(["a", "```js", "# x", "```", "b"].map(inFence)).toEqual([false, true, true, true, false]);
  });

  it("needs a closing fence of the same character and at least the same length", () => {
    const inFence = createFenceTracker();
    expect(["````", "```", "~~~~", "`````", "after"].map(inFence)).toEqual([true, true, true, true, false]);
  });

  it("does not close on a fence line with trailing text", () => {
    const inFence = createFenceTracker();
    expect(["```", "``` still code", "```", "out"].map(inFence)).toEqual([true, true, true, false]);
  });

  it("ignores backtick fences whose info string has a backtick", () => {
    const inFence = createFenceTracker();
    expect(["``` a`b", "# heading"].map(inFence)).toEqual([false, false]);
  });
});

describe("splitSections", () => {
  it("starts a section at each heading outside fences", () => {
    const sections = splitSections(splitLines("pre\n# A\n```\n# no\n```\n## B\nb"));
    expect(sections.map((section) => [section.heading?.text, texts(section.body)])).toEqual([
      [undefined, ["pre"]],
      ["# A", ["```", "# no", "```"]],
      ["## B", ["b"]],
    ]);
  });

  it("has no empty preamble section when the text starts with a heading", () => {
    expect(splitSections(splitLines("# A\nx"))).toHaveLength(1);
  });
});

describe("splitParagraphs", () => {
  it("splits on blank lines and records the gap before each paragraph", () => {
    const paragraphs = splitParagraphs(splitLines("a\nb\n\n  \nc\n\n"));
    expect(paragraphs.map((p) => [texts(p.gap), texts(p.lines)])).toEqual([
      [[], ["a", "b"]],
      [["", "  "], ["c"]],
    ]);
  });

  it("keeps a fenced block with blank lines in one paragraph", () => {
    const paragraphs = splitParagraphs(splitLines("intro\n\n```\nx = 1\n\ny = 2\n```\n\nouter"));
    expect(paragraphs.map((p) => texts(p.lines))).toEqual([
      ["intro"],
      ["```", "x = 1", "", "y = 2", "```"],
      ["outer"],
    ]);
  });
});
