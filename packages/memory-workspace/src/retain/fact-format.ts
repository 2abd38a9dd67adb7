// The typed-bullet grammar of `## Retain` (seed 003) and the fact entry content built from it.
import type { FactKind } from "../workspace-types.js";

/** The category of entries made from Retain facts. */
export const FACT_CATEGORY = "fact";

const KIND_OF_LETTER: Readonly<Record<string, FactKind>> = {
  W: "world",
  B: "experience",
  O: "opinion",
  S: "observation",
};
const LETTER_OF_KIND: Readonly<Record<FactKind, string>> = {
  world: "W",
  experience: "B",
  opinion: "O",
  observation: "S",
};
/** The kinds of Retain fact: world (W), experience (B), opinion (O), observation (S). */
export const FACT_KINDS: readonly FactKind[] = ["world", "experience", "opinion", "observation"];

// `- W @Alice works at Acme`, `- O(c=0.7) @Bob prefers Rust`, `* S: …`; full-width brackets and
// colons too, as Chinese input methods type them (no space needed after a bracket). The letter must
// be followed by a bracket, a colon or a space, so an ordinary bullet starting "World" is no fact.
const TYPED_BULLET =
  /^\s*[-*+]\s+([WBOS])(?:\s*[(（]\s*c\s*[=:＝：]\s*([^)）]*?)\s*[)）]\s*[:：]?\s*|\s*[:：]\s*|\s+)(\S.*)$/u;

// `@Name`: letters (any script), digits, marks, `_`, with `.` and `-` inside (`@The-Castle`);
// not after a word character, so `bob@example.com` mentions nobody.
const MENTION = /(?<![\p{L}\p{N}\p{M}_@])@([\p{L}\p{N}\p{M}_](?:[\p{L}\p{N}\p{M}_.-]*[\p{L}\p{N}\p{M}_])?)/gu;

/** A Retain bullet read: its kind, text, confidence (opinions) and `@` mentions. */
export interface TypedStatement {
  kind: FactKind;
  text: string;
  /** Set when `c=` held a number in 0..1. */
  confidence?: number;
  /** Set when `c=` was written but is not a number in 0..1 (the fact is kept without it). */
  badConfidence?: string;
}

/** The kind, text and confidence of a typed bullet line, or null for any other line. */
export function parseTypedBullet(line: string): TypedStatement | null {
  const match = TYPED_BULLET.exec(line);
  if (match === null) return null;
  const kind = KIND_OF_LETTER[match[1] as string] as FactKind;
  const text = (match[3] as string).trim();
  const raw = match[2];
  if (raw === undefined) return { kind, text };
  const value = raw.trim() === "" ? Number.NaN : Number(raw);
  if (!Number.isFinite(value) || value < 0 || value > 1) return { kind, text, badConfidence: raw };
  return { kind, text, confidence: value };
}

/** The entry content of a fact: its canonical typed line without the bullet, e.g. `O(c=0.7) @Bob …`.
 *  Kind and confidence stay readable and searchable, and parseFactContent reads them back. */
export function formatFactContent(statement: Pick<TypedStatement, "kind" | "text" | "confidence">): string {
  const letter = LETTER_OF_KIND[statement.kind];
  const confidence = statement.confidence === undefined ? "" : `(c=${statement.confidence})`;
  return `${letter}${confidence} ${statement.text}`;
}

/** A fact entry's content read back as a TypedStatement, or null when it is not one. */
export function parseFactContent(content: string): TypedStatement | null {
  return parseTypedBullet(`- ${content}`);
}

/** `@mentions` in order of first appearance, one per entity (compared by entityKey). */
export function mentionsOf(text: string): string[] {
  const names: string[] = [];
  const seen = new Set<string>();
  for (const match of text.matchAll(MENTION)) {
    const name = match[1] as string;
    const key = entityKey(name);
    if (seen.has(key)) continue;
    seen.add(key);
    names.push(name);
  }
  return names;
}

/** Entity names compare without case and Unicode compatibility differences; a leading `@` is dropped. */
export function entityKey(name: string): string {
  return name.replace(/^@/, "").normalize("NFKC").toLowerCase();
}
