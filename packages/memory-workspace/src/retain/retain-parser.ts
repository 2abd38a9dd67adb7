// Finds the `## Retain` (or `## 保留`) sections of a daily file and reads their typed bullets.
import { mentionsOf, parseTypedBullet, type TypedStatement } from "./fact-format.js";

/** Section titles that hold retained facts, compared without case and a trailing colon. */
export const RETAIN_HEADINGS: readonly string[] = ["retain", "保留"];

/** A fact found in a file's Retain section, with its entities and lines. */
export interface FactDraft extends TypedStatement {
  entities: string[];
  startLine: number;
  endLine: number;
}

/** The facts of a file's Retain sections, and the lines of untyped bullets. */
export interface RetainParse {
  facts: FactDraft[];
  /** Bullets in a Retain section without a W/B/O/S prefix: left to the file's chunks. */
  untyped: number[];
}

const HEADING = /^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const BULLET = /^\s*[-*+]\s+/;

/**
 * The typed bullets of every Retain section (a heading of any level titled "Retain" or "保留", up
 * to the next heading of the same or a higher level). An indented line after a bullet continues
 * it; fenced code is never read as headings or bullets. Lines are 1-based.
 */
export function parseRetainSections(text: string): RetainParse {
  const lines = text.split(/\r?\n/);
  const facts: FactDraft[] = [];
  const untyped: number[] = [];
  let sectionLevel = 0; // 0 = outside a Retain section
  let fence: string | null = null;
  let open: { statement: TypedStatement; startLine: number; endLine: number } | null = null;

  const close = () => {
    if (open === null) return;
    const { statement, startLine, endLine } = open;
    facts.push({ ...statement, entities: mentionsOf(statement.text), startLine, endLine });
    open = null;
  };

  lines.forEach((line, index) => {
    const lineNo = index + 1;
    const fenceMatch = FENCE.exec(line);
    if (fence !== null) {
      if (
        fenceMatch !== null &&
        fenceMatch[1]?.[0] === fence[0] &&
        (fenceMatch[1]?.length ?? 0) >= fence.length
      )
        fence = null;
      return;
    }
    if (fenceMatch !== null) {
      close();
      fence = fenceMatch[1] as string;
      return;
    }
    const heading = HEADING.exec(line);
    if (heading !== null) {
      close();
      const level = (heading[1] as string).length;
      if (sectionLevel > 0 && level > sectionLevel) return;
      sectionLevel = isRetainTitle(heading[2] as string) ? level : 0;
      return;
    }
    if (sectionLevel === 0) return;
    if (open !== null && line.trim() !== "" && /^\s{2,}/.test(line) && !BULLET.test(line)) {
      const current = open as { statement: TypedStatement; endLine: number };
      current.statement = { ...current.statement, text: `${current.statement.text} ${line.trim()}` };
      current.endLine = lineNo;
      return;
    }
    close();
    if (!BULLET.test(line)) return;
    const statement = parseTypedBullet(line);
    if (statement === null) untyped.push(lineNo);
    else open = { statement, startLine: lineNo, endLine: lineNo };
  });
  close();
  return { facts, untyped };
}

function isRetainTitle(title: string): boolean {
  const normalized = title
    .normalize("NFKC")
    .replace(/[:：]\s*$/, "")
    .trim()
    .toLowerCase();
  return RETAIN_HEADINGS.includes(normalized);
}
