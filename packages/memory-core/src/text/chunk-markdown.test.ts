import { isMemoryError } from "@claw/memory-api";
import { describe, expect, it } from "vitest";
import { chunkMarkdown } from "./chunk-markdown.js";

const DOC = [
  "Preamble line.", // 1
  "", // 2
  "# Title", // 3
  "", // 4
  "Intro paragraph.", // 5
  "", // 6
  "## Setup", // 7
  "Install it.", // 8
  "", // 9
  "", // 10
  "## Empty", // 11
  "### Usage ###", // 12
  "Run it.", // 13
  "", // 14
].join("\n");

describe("chunkMarkdown on small documents", () => {
  it("returns one chunk per section with exact line numbers and headings", () => {
    expect(chunkMarkdown(DOC)).toEqual([
      { text: "Preamble line.", startLine: 1, endLine: 1 },
      {
        text: "# Title\n\nIntro paragraph.",
        startLine: 3,
        endLine: 5,
        heading: "# Title",
        headingPath: "Title",
      },
      {
        text: "## Setup\nInstall it.",
        startLine: 7,
        endLine: 8,
        heading: "## Setup",
        headingPath: "Title > Setup",
      },
      { text: "## Empty", startLine: 11, endLine: 11, heading: "## Empty", headingPath: "Title > Empty" },
      {
        text: "### Usage ###\nRun it.",
        startLine: 12,
        endLine: 13,
        heading: "### Usage ###",
        headingPath: "Title > Empty > Usage",
      },
    ]);
  });

  it("returns [] for empty or whitespace-only text", () => {
    expect(chunkMarkdown("")).toEqual([]);
    expect(chunkMarkdown(" \n\t\n  \n")).toEqual([]);
  });

  it("returns a document without headings as one chunk", () => {
    expect(chunkMarkdown("\n\nfirst\n\nsecond\n\n")).toEqual([
      { text: "first\n\nsecond", startLine: 3, endLine: 5 },
    ]);
  });

  it("accepts CRLF line endings", () => {
    expect(chunkMarkdown("# A\r\nbody\r\n# B\r\nmore\r\n")).toEqual([
      { text: "# A\nbody", startLine: 1, endLine: 2, heading: "# A", headingPath: "A" },
      { text: "# B\nmore", startLine: 3, endLine: 4, heading: "# B", headingPath: "B" },
    ]);
  });

  it("does not treat # lines inside fenced code as headings", () => {
    const doc = [
      "# Shell",
      "```sh",
      "# install deps",
      "pnpm i",
      "```",
      "~~~",
      "## not a heading",
      "~~~",
    ].join("\n");
    expect(chunkMarkdown(doc)).toEqual([
      { text: doc, startLine: 1, endLine: 8, heading: "# Shell", headingPath: "Shell" },
    ]);
  });

  it("resumes heading detection after the fence closes", () => {
    const doc = ["# A", "````", "# in code", "```", "still code", "````", "# B", "text"].join("\n");
    const chunks = chunkMarkdown(doc);
    expect(chunks.map((chunk) => [chunk.heading, chunk.startLine, chunk.endLine])).toEqual([
      ["# A", 1, 6],
      ["# B", 7, 8],
    ]);
  });

  it("treats an unclosed fence as running to the end", () => {
    const chunks = chunkMarkdown("# A\n```\n# not a heading\ntext");
    expect(chunks).toHaveLength(1);
    expect(chunks[0]?.endLine).toBe(4);
  });

  it("requires a space after the hashes, as CommonMark does", () => {
    expect(chunkMarkdown("#hashtag\n####### seven\n    # indented code")).toEqual([
      { text: "#hashtag\n####### seven\n    # indented code", startLine: 1, endLine: 3 },
    ]);
  });

  it("accepts a heading indented by up to three spaces", () => {
    const chunks = chunkMarkdown("intro\n   ## Indented\nbody");
    expect(chunks.map((chunk) => chunk.heading)).toEqual([undefined, "## Indented"]);
  });

  it("repeats an indented heading trimmed, as in the heading field", () => {
    const chunks = chunkMarkdown(`   ## Indented  \n${"a".repeat(30)}\n${"b".repeat(30)}`, { maxTokens: 12 });
    expect(chunks.map((chunk) => chunk.text)).toEqual([
      `   ## Indented  \n${"a".repeat(30)}`,
      `## Indented\n${"b".repeat(30)}`,
    ]);
    expect(chunks.map((chunk) => chunk.heading)).toEqual(["## Indented", "## Indented"]);
  });
});

describe("chunkMarkdown option validation", () => {
  it.each([
    [{ maxTokens: -1 }, "maxTokens"],
    [{ maxTokens: 1.5 }, "maxTokens"],
    [{ maxTokens: Number.NaN }, "maxTokens"],
    [{ maxTokens: 0 }, "overlapTokens"], // overlap 0 is not below max 0
    [{ overlapTokens: -2 }, "overlapTokens"],
    [{ overlapTokens: 0.5 }, "overlapTokens"],
    [{ maxTokens: 10, overlapTokens: 10 }, "overlapTokens"],
    [{ maxTokens: 10, overlapTokens: 11 }, "overlapTokens"],
  ])("%j → INVALID_INPUT %s", (options, field) => {
    let caught: unknown;
    try {
      chunkMarkdown("text", options);
    } catch (error) {
      caught = error;
    }
    expect(isMemoryError(caught, "INVALID_INPUT")).toBe(true);
    expect((caught as { field?: string }).field).toBe(field);
  });

  it("accepts the smallest valid options", () => {
    expect(chunkMarkdown("abcd", { maxTokens: 1, overlapTokens: 0 })).toEqual([
      { text: "abcd", startLine: 1, endLine: 1 },
    ]);
  });
});

describe("chunkMarkdown heading paths", () => {
  it("gives each chunk the titles of the headings above it, outermost first", () => {
    const text =
      "# Falcon\n\nIntro.\n\n## Decisions\n\nUse pgvector.\n\n### Database ###\n\nPostgreSQL 16.\n\n## Risks\n\nNone.\n";
    const chunks = chunkMarkdown(text, { maxTokens: 400 });
    expect(chunks.map((c) => c.headingPath)).toEqual([
      "Falcon",
      "Falcon > Decisions",
      "Falcon > Decisions > Database",
      "Falcon > Risks",
    ]);
  });

  it("gives none to text before the first heading", () => {
    expect(chunkMarkdown("Just text.\n")[0]?.headingPath).toBeUndefined();
  });
});
