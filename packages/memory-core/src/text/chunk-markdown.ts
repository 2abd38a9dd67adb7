import type { Chunk } from "@claw/memory-api";
import { MemoryError } from "@claw/memory-api";
import type { SourceLine } from "./markdown-blocks.js";
import { splitLines, splitParagraphs, splitSections } from "./markdown-blocks.js";

export interface ChunkMarkdownOptions {
  /** Upper bound of a chunk, in tokens of ~4 characters. Default 400. */
  maxTokens?: number;
  /** Tokens of whole lines from the previous piece repeated at the start of the next. Default 0. */
  overlapTokens?: number;
}

export const DEFAULT_CHUNK_MAX_TOKENS = 400;
export const DEFAULT_CHUNK_OVERLAP_TOKENS = 0;
/** A rough, tokenizer-free estimate; good enough to keep chunks under embedding-model limits. */
export const CHARS_PER_TOKEN = 4;

/**
 * Splits Markdown into chunks of at most maxTokens*4 characters: one chunk per heading section
 * when it fits, otherwise paragraphs packed greedily, then lines, then hard-split characters.
 * Pieces after the first of a section repeat its heading line so each chunk carries its context;
 * line numbers always refer to the original text and exclude the repeated heading.
 */
export function chunkMarkdown(text: string, options: ChunkMarkdownOptions = {}): Chunk[] {
  if (typeof text !== "string") {
    throw MemoryError.invalidInput("text", `must be a string, got ${typeof text}`);
  }
  const maxTokens = options.maxTokens ?? DEFAULT_CHUNK_MAX_TOKENS;
  const overlapTokens = options.overlapTokens ?? DEFAULT_CHUNK_OVERLAP_TOKENS;
  requireNonNegativeInteger("maxTokens", maxTokens);
  requireNonNegativeInteger("overlapTokens", overlapTokens);
  if (overlapTokens >= maxTokens) {
    throw MemoryError.invalidInput(
      "overlapTokens",
      `must be less than maxTokens (${maxTokens}), got ${overlapTokens}`,
    );
  }
  if (text.trim() === "") return [];
  const maxChars = maxTokens * CHARS_PER_TOKEN;
  const overlapChars = overlapTokens * CHARS_PER_TOKEN;
  const chunks: Chunk[] = [];
  const path = new HeadingPath();
  for (const section of splitSections(splitLines(text))) {
    const heading = section.heading;
    const headingPath = heading === undefined ? undefined : path.enter(heading.text);
    // A heading taking more than half a chunk cannot be repeated and still leave room for content;
    // it is then packed as ordinary content, hard-split if need be, so no chunk exceeds maxChars.
    const repeatable = heading !== undefined && heading.text.length + 1 <= maxChars / 2;
    const packer = new SectionPacker(repeatable ? heading : undefined, maxChars, overlapChars);
    if (heading !== undefined && !repeatable) packer.addParagraph([], [heading]);
    for (const paragraph of splitParagraphs(section.body)) {
      packer.addParagraph(paragraph.gap, paragraph.lines);
    }
    for (const piece of packer.finish()) {
      chunks.push(heading === undefined ? piece : { ...piece, heading: heading.text.trim(), headingPath });
    }
  }
  return chunks;
}

/** The titles of the open headings, outermost first: "# A", "## B", "## C" gives "A > C". */
class HeadingPath {
  private readonly open: Array<{ level: number; title: string }> = [];

  /** Enters an ATX heading line; returns the path down to it. */
  enter(line: string): string {
    const trimmed = line.trim();
    const level = /^#{1,6}/.exec(trimmed)?.[0].length ?? 1;
    const title = trimmed
      .replace(/^#{1,6}\s*/, "")
      .replace(/\s+#+\s*$/, "")
      .trim();
    while (this.open.length > 0 && (this.open[this.open.length - 1] as { level: number }).level >= level) {
      this.open.pop();
    }
    this.open.push({ level, title });
    return this.open
      .map((h) => h.title)
      .filter((t) => t !== "")
      .join(" > ");
  }
}

function requireNonNegativeInteger(field: string, value: unknown): void {
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0) {
    throw MemoryError.invalidInput(field, `must be a non-negative integer, got ${String(value)}`);
  }
}

/** Greedy packing of one section's lines into pieces; see chunkMarkdown. */
class SectionPacker {
  private readonly pieces: Chunk[] = [];
  /** Heading line repeated on top of pieces after the first; empty for an unheaded section. */
  private readonly prefix: string;
  /** Original lines of the current piece: heading (first piece) or overlap, then new content. */
  private atoms: SourceLine[] = [];
  /** Leading atoms that are not overlap and must stay: the heading line of the first piece. */
  private fixedCount = 0;
  /** Index in `atoms` of the first line that is new content. */
  private contentStart = 0;
  /** Length of the piece text so far, the repeated heading included. */
  private size = 0;
  private onFirstPiece = true;

  constructor(
    private readonly heading: SourceLine | undefined,
    private readonly maxChars: number,
    private readonly overlapChars: number,
  ) {
    // Trimmed like the chunk's `heading` field, so a piece's text starts with exactly that string.
    this.prefix = heading === undefined ? "" : heading.text.trim();
    if (heading !== undefined) {
      // The first piece contains the heading as an original line, not as a repeated prefix.
      this.append([heading]);
      this.fixedCount = 1;
      this.contentStart = 1;
    }
  }

  addParagraph(gap: readonly SourceLine[], lines: readonly SourceLine[]): void {
    if (this.tryAppend(this.withGap(gap, lines))) return;
    if (this.hasContent()) {
      this.flush();
      if (this.tryAppend(this.withGap(gap, lines))) return;
    }
    if (this.atoms.length > 0) this.tryAppend(gap);
    for (const line of lines) this.addLine(line);
  }

  finish(): Chunk[] {
    if (this.hasContent()) this.flush();
    // A section holding nothing but its heading still says something worth finding.
    if (this.pieces.length === 0 && this.heading !== undefined) {
      this.pieces.push({ text: this.heading.text, startLine: this.heading.no, endLine: this.heading.no });
    }
    return this.pieces;
  }

  private addLine(line: SourceLine): void {
    if (this.tryAppend([line])) return;
    if (this.hasContent()) {
      this.flush();
      if (this.tryAppend([line])) return;
    }
    // The line alone overflows a fresh piece: cut it by characters, never inside a surrogate pair.
    let rest = line.text;
    while (rest !== "") {
      let room = this.maxChars - this.size - (this.size > 0 ? 1 : 0);
      if (room < 1 && !this.hasContent()) {
        // Overlap or blank lines filled the piece; a repeatable heading always leaves room alone.
        this.restart([]);
        room = this.maxChars - this.size - (this.size > 0 ? 1 : 0);
      }
      const fragment = takeCodePoints(rest, Math.max(1, room));
      this.append([{ text: fragment, no: line.no }]);
      rest = rest.slice(fragment.length);
      if (rest !== "") this.flush();
    }
  }

  private withGap(gap: readonly SourceLine[], lines: readonly SourceLine[]): readonly SourceLine[] {
    // Blank lines before the first line of a piece carry nothing; elsewhere they are kept verbatim.
    return this.atoms.length > 0 ? [...gap, ...lines] : lines;
  }

  private hasContent(): boolean {
    return this.atoms.length > this.contentStart;
  }

  private tryAppend(lines: readonly SourceLine[]): boolean {
    let size = this.size;
    for (const line of lines) size += (size > 0 ? 1 : 0) + line.text.length;
    if (size > this.maxChars) return false;
    this.append(lines);
    return true;
  }

  private append(lines: readonly SourceLine[]): void {
    for (const line of lines) {
      this.size += (this.size > 0 ? 1 : 0) + line.text.length;
      this.atoms.push(line);
    }
  }

  private flush(): void {
    const isFirst = this.onFirstPiece;
    const fresh = this.atoms.slice(this.contentStart);
    const atoms = trimBlank(this.atoms);
    const first = atoms[0];
    const last = atoms[atoms.length - 1];
    if (fresh.some((line) => line.text.trim() !== "") && first !== undefined && last !== undefined) {
      const body = atoms.map((line) => line.text).join("\n");
      this.pieces.push({
        text: isFirst || this.prefix === "" ? body : `${this.prefix}\n${body}`,
        startLine: first.no,
        endLine: last.no,
      });
    }
    const overlap = this.overlapFrom(this.atoms.slice(this.fixedCount));
    this.onFirstPiece = false;
    this.fixedCount = 0;
    this.restart(overlap);
  }

  /** Starts the next piece (or restarts the current one) with the fixed atoms and `overlap`. */
  private restart(overlap: readonly SourceLine[]): void {
    const fixed = this.atoms.slice(0, this.fixedCount);
    this.atoms = [];
    this.size = this.fixedCount > 0 ? 0 : this.prefix.length;
    this.append(fixed);
    this.append(overlap);
    this.contentStart = this.atoms.length;
  }

  /**
   * Whole lines from the end of `atoms`, at most overlapChars, never more than half the room.
   * Trailing blank lines are kept (only leading ones go): they sit between the overlap and the
   * next content in the original, and dropping them would make the text disagree with the range.
   */
  private overlapFrom(atoms: readonly SourceLine[]): SourceLine[] {
    const budget = Math.min(this.overlapChars, Math.floor((this.maxChars - this.prefix.length) / 2));
    const taken: SourceLine[] = [];
    let size = 0;
    for (let i = atoms.length - 1; i >= 0; i--) {
      const line = atoms[i] as SourceLine;
      const next = size + (taken.length > 0 ? 1 : 0) + line.text.length;
      if (next > budget) break;
      taken.unshift(line);
      size = next;
    }
    const firstText = taken.findIndex((line) => line.text.trim() !== "");
    return firstText === -1 ? [] : taken.slice(firstText);
  }
}

function trimBlank(lines: readonly SourceLine[]): SourceLine[] {
  let start = 0;
  let end = lines.length;
  while (start < end && (lines[start] as SourceLine).text.trim() === "") start++;
  while (end > start && (lines[end - 1] as SourceLine).text.trim() === "") end--;
  return lines.slice(start, end);
}

/** The longest prefix of `text` of at most `limit` UTF-16 units that ends on a code point boundary. */
function takeCodePoints(text: string, limit: number): string {
  if (text.length <= limit) return text;
  let end = limit;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  // Progress is guaranteed even when the only code point fitting is wider than `limit`.
  return end > 0 ? text.slice(0, end) : text.slice(0, 2);
}
