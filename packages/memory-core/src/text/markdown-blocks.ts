/**
 * The line structure of a Markdown document that chunkMarkdown needs: sections under ATX headings
 * and blank-line separated paragraphs, both blind to lines inside fenced code blocks (a `# comment`
 * in a shell snippet is not a heading, and a blank line in code does not end a paragraph).
 */

/** One line of the original text (or, once hard-split, a piece of one); `no` is 1-based. */
export interface SourceLine {
  text: string;
  no: number;
}

export interface MarkdownSection {
  /** The ATX heading line that opens the section; absent for text before the first heading. */
  heading?: SourceLine;
  body: SourceLine[];
}

export interface Paragraph {
  /** Blank lines between the previous paragraph and this one, to rebuild the original text. */
  gap: SourceLine[];
  /** Consecutive lines, none blank outside a fenced code block. */
  lines: SourceLine[];
}

const ATX_HEADING = /^ {0,3}#{1,6}(?:[ \t]|$)/;
const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})(.*)$/;
const FENCE_CLOSE = /^ {0,3}(`{3,}|~{3,})[ \t]*$/;

/** Lines of `text` with LF or CRLF endings, numbered from 1. */
export function splitLines(text: string): SourceLine[] {
  return text.split("\n").map((line, index) => ({
    text: line.endsWith("\r") ? line.slice(0, -1) : line,
    no: index + 1,
  }));
}

/**
 * A stateful classifier fed every line in order; it answers whether the line belongs to a fenced
 * code block (delimiters included). An unclosed fence runs to the end, as in CommonMark.
 */
export function createFenceTracker(): (line: string) => boolean {
  let open: { char: string; length: number } | null = null;
  return (line) => {
    if (open !== null) {
      const close = FENCE_CLOSE.exec(line);
      const marker = close?.[1];
      if (marker !== undefined && marker[0] === open.char && marker.length >= open.length) open = null;
      return true;
    }
    const start = FENCE_OPEN.exec(line);
    const marker = start?.[1];
    if (marker === undefined) return false;
    // CommonMark: a backtick fence's info string may not contain backticks (that is inline code).
    if (marker[0] === "`" && (start?.[2] ?? "").includes("`")) return false;
    open = { char: marker[0] as string, length: marker.length };
    return true;
  };
}

/** True for an ATX heading line (`#` to `######` then a space or the end of the line). */
export function isAtxHeading(line: string): boolean {
  return ATX_HEADING.test(line);
}

/** Splits lines into sections at ATX headings outside fenced code. */
export function splitSections(lines: readonly SourceLine[]): MarkdownSection[] {
  const sections: MarkdownSection[] = [];
  const inFence = createFenceTracker();
  let current: MarkdownSection = { body: [] };
  for (const line of lines) {
    if (!inFence(line.text) && isAtxHeading(line.text)) {
      if (current.heading !== undefined || current.body.length > 0) sections.push(current);
      current = { heading: line, body: [] };
    } else {
      current.body.push(line);
    }
  }
  sections.push(current);
  return sections;
}

/** Groups lines into paragraphs separated by blank lines; trailing blank lines are dropped. */
export function splitParagraphs(lines: readonly SourceLine[]): Paragraph[] {
  const paragraphs: Paragraph[] = [];
  const inFence = createFenceTracker();
  let gap: SourceLine[] = [];
  let current: Paragraph | null = null;
  for (const line of lines) {
    const fenced = inFence(line.text);
    if (!fenced && line.text.trim() === "") {
      if (current !== null) {
        paragraphs.push(current);
        current = null;
      }
      gap.push(line);
      continue;
    }
    if (current === null) {
      current = { gap, lines: [] };
      gap = [];
    }
    current.lines.push(line);
  }
  if (current !== null) paragraphs.push(current);
  return paragraphs;
}
