import type { Chunk } from "@claw/memory-api";
import { describe, expect, it } from "vitest";
import { chunkMarkdown } from "./chunk-markdown.js";

/** Chunks without their heading paths (chunk-markdown.test.ts checks those): these tests are about
 *  where the text is cut. */
function cut(...args: Parameters<typeof chunkMarkdown>): Omit<Chunk, "headingPath">[] {
  return chunkMarkdown(...args).map(({ headingPath: _path, ...chunk }) => chunk);
}

// maxTokens 10 → 40 characters per chunk, which keeps hand-computed expectations small.
const SMALL = { maxTokens: 10 };

const line = (label: string, length: number): string => label.padEnd(length, "x");

describe("chunkMarkdown splitting an oversized section", () => {
  it("packs whole paragraphs greedily and repeats the heading", () => {
    const doc = ["# H", "", line("a", 10), "", line("b", 10), "", line("c", 10), line("d", 10)].join("\n");
    expect(cut(doc, SMALL)).toEqual([
      { text: "# H\n\naxxxxxxxxx\n\nbxxxxxxxxx", startLine: 1, endLine: 5, heading: "# H" },
      { text: "# H\ncxxxxxxxxx\ndxxxxxxxxx", startLine: 7, endLine: 8, heading: "# H" },
    ]);
  });

  it("splits a paragraph too long for one chunk on line boundaries", () => {
    const lines = [1, 2, 3, 4, 5].map((n) => line(`l${n}`, 15));
    expect(cut(lines.join("\n"), SMALL)).toEqual([
      { text: `${lines[0]}\n${lines[1]}`, startLine: 1, endLine: 2 },
      { text: `${lines[2]}\n${lines[3]}`, startLine: 3, endLine: 4 },
      { text: `${lines[4]}`, startLine: 5, endLine: 5 },
    ]);
  });

  it("keeps the heading with the first lines of a long paragraph", () => {
    const lines = [1, 2, 3, 4, 5].map((n) => line(`l${n}`, 15));
    expect(cut(["## Notes", ...lines].join("\n"), SMALL)).toEqual([
      { text: `## Notes\n${lines[0]}\n${lines[1]}`, startLine: 1, endLine: 3, heading: "## Notes" },
      { text: `## Notes\n${lines[2]}\n${lines[3]}`, startLine: 4, endLine: 5, heading: "## Notes" },
      { text: `## Notes\n${lines[4]}`, startLine: 6, endLine: 6, heading: "## Notes" },
    ]);
  });

  it("hard-splits a single line longer than a chunk", () => {
    const long = "0123456789".repeat(10);
    const chunks = cut(long, SMALL);
    expect(chunks).toEqual([
      { text: long.slice(0, 40), startLine: 1, endLine: 1 },
      { text: long.slice(40, 80), startLine: 1, endLine: 1 },
      { text: long.slice(80), startLine: 1, endLine: 1 },
    ]);
  });

  it("hard-splits under a heading, leaving room for the repeated heading", () => {
    const long = "0123456789".repeat(10);
    const chunks = cut(`# T\n${long}`, SMALL);
    expect(chunks.map((chunk) => chunk.text)).toEqual([
      `# T\n${long.slice(0, 36)}`,
      `# T\n${long.slice(36, 72)}`,
      `# T\n${long.slice(72)}`,
    ]);
    expect(chunks.map((chunk) => [chunk.startLine, chunk.endLine])).toEqual([
      [1, 2],
      [2, 2],
      [2, 2],
    ]);
  });

  it("never cuts a surrogate pair", () => {
    const long = `a${"😀".repeat(50)}`;
    const chunks = cut(long, SMALL);
    for (const chunk of chunks) {
      expect(chunk.text).not.toMatch(/\p{Cs}/u);
      expect(chunk.text.length).toBeLessThanOrEqual(40);
    }
    expect(chunks.map((chunk) => chunk.text).join("")).toBe(long);
    expect(chunks[0]?.text).toBe(`a${"😀".repeat(19)}`);
  });

  it("drops pieces that are only whitespace", () => {
    const chunks = cut(`${" ".repeat(100)}x`, SMALL);
    expect(chunks).toEqual([{ text: `${" ".repeat(20)}x`, startLine: 1, endLine: 1 }]);
  });

  it("does not repeat a heading longer than half a chunk, but still names it", () => {
    const heading = `# ${"h".repeat(28)}`;
    const body = [line("p", 15), line("q", 15)];
    const chunks = cut([heading, ...body].join("\n"), SMALL);
    expect(chunks).toEqual([
      { text: heading, startLine: 1, endLine: 1, heading },
      { text: body.join("\n"), startLine: 2, endLine: 3, heading },
    ]);
  });

  it("keeps every chunk within maxChars even for an absurd heading", () => {
    const heading = `# ${"h".repeat(100)}`;
    const chunks = cut(`${heading}\nshort body`, SMALL);
    for (const chunk of chunks) expect(chunk.text.length).toBeLessThanOrEqual(40);
    // The heading is cut by characters; its last piece still has room for the next line.
    expect(chunks.map((chunk) => chunk.text).join("")).toBe(`${heading}\nshort body`);
    expect(chunks.every((chunk) => chunk.heading === heading)).toBe(true);
  });
});

describe("chunkMarkdown with overlap", () => {
  const lines = [1, 2, 3, 4, 5, 6, 7].map((n) => line(`l${n}`, 9));

  it("starts each later piece with the last whole lines of the previous one", () => {
    // 40 chars per chunk, up to 12 chars of overlap: exactly one 9-char line.
    const chunks = cut(lines.slice(0, 6).join("\n"), { maxTokens: 10, overlapTokens: 3 });
    expect(chunks).toEqual([
      { text: lines.slice(0, 4).join("\n"), startLine: 1, endLine: 4 },
      { text: lines.slice(3, 6).join("\n"), startLine: 4, endLine: 6 },
    ]);
  });

  it("puts the overlap after the repeated heading", () => {
    const chunks = cut(["# H", ...lines].join("\n"), { maxTokens: 10, overlapTokens: 3 });
    expect(chunks).toEqual([
      { text: ["# H", ...lines.slice(0, 3)].join("\n"), startLine: 1, endLine: 4, heading: "# H" },
      { text: ["# H", ...lines.slice(2, 5)].join("\n"), startLine: 4, endLine: 6, heading: "# H" },
      { text: ["# H", ...lines.slice(4, 7)].join("\n"), startLine: 6, endLine: 8, heading: "# H" },
    ]);
  });

  it("takes several lines when they fit the overlap", () => {
    const short = ["a1", "a2", "a3", "a4", "a5", "a6", "a7", "a8", "a9", "b1", "b2", "b3", "b4", "b5"];
    // 20 chars per chunk (7 two-char lines), overlap 8 chars (3 lines: 2+1+2+1+2).
    const chunks = cut(short.join("\n"), { maxTokens: 5, overlapTokens: 2 });
    expect(chunks.map((chunk) => [chunk.startLine, chunk.endLine])).toEqual([
      [1, 7],
      [5, 11],
      [9, 14],
    ]);
    expect(chunks[1]?.text).toBe(short.slice(4, 11).join("\n"));
  });

  it("keeps a blank line that ended the previous piece between the overlap and the next line", () => {
    // A fenced block is one paragraph, so its blank line is split on like any other line.
    const doc = ["```", line("a", 9), line("b", 9), line("c", 9), "", line("d", 9), "```"].join("\n");
    expect(cut(doc, { maxTokens: 10, overlapTokens: 3 })).toEqual([
      { text: ["```", line("a", 9), line("b", 9), line("c", 9)].join("\n"), startLine: 1, endLine: 4 },
      { text: [line("c", 9), "", line("d", 9), "```"].join("\n"), startLine: 4, endLine: 7 },
    ]);
  });

  it("does not overlap across sections", () => {
    const doc = ["# A", "alpha", "# B", "beta"].join("\n");
    expect(cut(doc, { maxTokens: 10, overlapTokens: 5 })).toEqual([
      { text: "# A\nalpha", startLine: 1, endLine: 2, heading: "# A" },
      { text: "# B\nbeta", startLine: 3, endLine: 4, heading: "# B" },
    ]);
  });
});

describe("chunkMarkdown invariants on generated documents", () => {
  // Small deterministic PRNG so failures reproduce.
  function random(seed: number): () => number {
    let state = seed;
    return () => {
      state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
      return state / 2_147_483_648;
    };
  }

  function generate(seed: number): string {
    const next = random(seed);
    const out: string[] = [];
    const count = 80 + Math.floor(next() * 120);
    for (let i = 0; i < count; i++) {
      const r = next();
      if (r < 0.05) out.push(`${"#".repeat(1 + Math.floor(next() * 3))} Heading ${i}`);
      else if (r < 0.25) out.push("");
      else if (r < 0.27) out.push("```");
      else out.push(`w${i} `.repeat(1 + Math.floor(next() * 5)).trimEnd());
    }
    return out.join("\n");
  }

  it.each([
    [1, 20, 0, true],
    [2, 20, 5, true],
    [3, 50, 10, true],
    [4, 30, 29, true],
    [5, 400, 0, false],
  ])(
    "seed %s, maxTokens %s, overlap %s: bounded, exact line ranges",
    (seed, maxTokens, overlapTokens, split) => {
      const doc = generate(seed);
      const original = doc.split("\n");
      const chunks = cut(doc, { maxTokens, overlapTokens });
      expect(chunks.length).toBeGreaterThan(0);
      // With small chunks some section is split, so the repeated-heading path is exercised.
      expect(
        chunks.some(
          (chunk) =>
            chunk.heading !== undefined &&
            chunk.text.startsWith(`${chunk.heading}\n`) &&
            !original[chunk.startLine - 1]?.startsWith("#"),
        ),
      ).toBe(split);
      let previousEnd = 0;
      for (const chunk of chunks) {
        expect(chunk.text.length).toBeLessThanOrEqual(maxTokens * 4);
        expect(chunk.startLine).toBeLessThanOrEqual(chunk.endLine);
        expect(chunk.endLine).toBeGreaterThanOrEqual(previousEnd);
        previousEnd = chunk.endLine;
        const covered = original.slice(chunk.startLine - 1, chunk.endLine).join("\n");
        // A piece is its original lines, after the repeated heading when it continues a section.
        const repeated = chunk.heading === undefined ? covered : `${chunk.heading}\n${covered}`;
        expect([covered, repeated]).toContain(chunk.text);
      }
      // Every non-blank line of the document is in some chunk.
      original.forEach((text, index) => {
        if (text.trim() === "") return;
        expect(chunks.some((chunk) => chunk.startLine <= index + 1 && index + 1 <= chunk.endLine)).toBe(true);
      });
    },
  );
});
