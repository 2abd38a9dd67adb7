// The aliases an entity page declares in the user's part: a front-matter key or an `aliases:` line.
import { userPartOf } from "../reflect/page-block.js";

// `aliases: Pete, P. Steinberger`, `- Aliases：彼得、老彼`, `* aliases: [Pete, "Steinberger, P."]`.
const ALIAS_LINE = /^ {0,3}(?:[-*+]\s+)?aliases\s*[:：]\s*(.*)$/i;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const FRONT_MATTER_OPEN = /^\uFEFF?---\s*$/;
const FRONT_MATTER_CLOSE = /^(?:---|\.\.\.)\s*$/;
const BLOCK_ITEM = /^\s*-\s+(.*)$/;
const SEPARATORS = new Set([",", "，", "、"]);

/**
 * Every alias `page` declares, as written (trimmed, without a leading `@`), in order:
 * - YAML front matter: `aliases: [Pete, Steinberger]`, `aliases: Pete, Steinberger`, or `aliases:`
 *   followed by `- Pete` items;
 * - outside front matter, fenced code and the generated block: any line `aliases: …` (any case,
 *   optionally a `-`, `*` or `+` list item), the names separated by `,`, `，` or `、`.
 * Names may be quoted ("Steinberger, P."); empty names are dropped.
 */
export function aliasesDeclaredIn(page: string): string[] {
  const lines = userPartOf(page).split(/\r?\n/);
  const found: string[] = [];
  let start = 0;
  if (FRONT_MATTER_OPEN.test(lines[0] ?? "")) {
    const end = lines.findIndex((line, i) => i > 0 && FRONT_MATTER_CLOSE.test(line));
    if (end > 0) {
      found.push(...frontMatterAliases(lines.slice(1, end)));
      start = end + 1;
    }
  }
  let fence: string | null = null;
  for (const line of lines.slice(start)) {
    const fenceMatch = FENCE.exec(line)?.[1];
    if (fence !== null) {
      if (fenceMatch !== undefined && fenceMatch[0] === fence[0] && fenceMatch.length >= fence.length)
        fence = null;
      continue;
    }
    if (fenceMatch !== undefined) {
      fence = fenceMatch;
      continue;
    }
    const value = ALIAS_LINE.exec(line)?.[1];
    if (value !== undefined) found.push(...splitNames(value));
  }
  return found;
}

/** The `aliases` key of a front matter: an inline list or scalar, or a block list below it. */
function frontMatterAliases(lines: readonly string[]): string[] {
  const found: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const match = /^aliases\s*:\s*(.*)$/i.exec(lines[i] as string);
    if (match === null) continue;
    const inline = (match[1] as string).replace(/\s+#.*$/, "").trim();
    if (inline !== "") {
      found.push(...splitNames(inline));
      continue;
    }
    for (let j = i + 1; j < lines.length; j++) {
      const line = lines[j] as string;
      if (line.trim() === "" || /^\s*#/.test(line)) continue;
      const item = BLOCK_ITEM.exec(line);
      if (item === null) break;
      found.push(...splitNames(item[1] as string, false));
      i = j;
    }
  }
  return found;
}

/** `Pete, "Steinberger, P.", @彼得` → names; `[…]` around the list is dropped. Quotes keep separators. */
function splitNames(value: string, separated = true): string[] {
  let text = value.trim();
  if (text.startsWith("[") && text.endsWith("]")) text = text.slice(1, -1);
  const names: string[] = [];
  let current = "";
  let quote: string | null = null;
  for (const char of text) {
    if (quote !== null) {
      if (char === quote) quote = null;
      else current += char;
    } else if ((char === '"' || char === "'") && current.trim() === "") {
      quote = char;
      current = "";
    } else if (separated && SEPARATORS.has(char)) {
      names.push(current);
      current = "";
    } else {
      current += char;
    }
  }
  names.push(current);
  return names.map(cleanName).filter((name) => name !== "");
}

function cleanName(name: string): string {
  return name
    .trim()
    .replace(/^[@＠]\s*/, "")
    .trim();
}
