// Reading a Markdown file the way the doc-test needs it: its fenced code blocks (with the line each
// starts on), its prose with code taken out (for links), its headings as GitHub slugs them (for
// anchors). Not a full CommonMark parser: what the docs of this repository use.

const FENCE = /^(\s*)(`{3,}|~{3,})(.*)$/;

/**
 * The fenced code blocks of `text`, in order: `{ line, lang, words, attrs, code, endLine }`. `line` is
 * the 1-based line of the opening fence; `lang` the info string's first word (lowercased), `words`
 * the other bare words, `attrs` its `name=value` words. Content lines lose the fence's indentation.
 */
export function parseBlocks(text) {
  const lines = splitLines(text);
  const blocks = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]);
    if (!open || (open[2][0] === "`" && open[3].includes("`"))) continue;
    const [, indent, fence, info] = open;
    const content = [];
    let end = i + 1;
    for (; end < lines.length; end++) {
      const close = /^\s*(`{3,}|~{3,})\s*$/.exec(lines[end]);
      if (close && close[1][0] === fence[0] && close[1].length >= fence.length) break;
      content.push(stripIndent(lines[end], indent.length));
    }
    const [lang = "", ...rest] = info.trim().split(/\s+/).filter(Boolean);
    const words = rest.filter((w) => !w.includes("="));
    const attrs = Object.fromEntries(rest.filter((w) => w.includes("=")).map((w) => w.split(/=(.*)/s, 2)));
    blocks.push({
      line: i + 1,
      lang: lang.toLowerCase(),
      words,
      attrs,
      code: content.length ? `${content.join("\n")}\n` : "",
      endLine: end + 1,
    });
    i = end;
  }
  return blocks;
}

/** True when only blank lines stand between the end of block `a` and the start of block `b`. */
export function isAdjacent(text, a, b) {
  const lines = splitLines(text);
  for (let n = a.endLine + 1; n < b.line; n++) if (lines[n - 1].trim() !== "") return false;
  return true;
}

/**
 * The text outside fenced code blocks and HTML comments, with the same line numbers (what was taken
 * out becomes empty lines), so that a match's offset still gives its line.
 */
export function proseOf(text) {
  const lines = splitLines(text);
  for (const block of parseBlocks(text))
    for (let n = block.line; n <= Math.min(block.endLine, lines.length); n++) lines[n - 1] = "";
  return lines.join("\n").replace(/<!--[\s\S]*?-->/g, (comment) => comment.replace(/[^\n]/g, ""));
}

/** `prose` with inline code spans blanked (newlines kept): nothing inside backticks is a link. */
export function withoutCodeSpans(prose) {
  return prose.replace(/(`+)((?:(?!\n[ \t]*\n)[\s\S])+?)\1(?!`)/g, (span) => span.replace(/[^\n]/g, " "));
}

/** The 1-based line of `offset` in `text`. */
export function lineAt(text, offset) {
  let line = 1;
  for (let i = text.indexOf("\n"); i !== -1 && i < offset; i = text.indexOf("\n", i + 1)) line++;
  return line;
}

/**
 * The anchors a Markdown file has on GitHub: one per heading (ATX `#` and setext `===`/`---`),
 * slugged and numbered the way GitHub does, plus every HTML `id="…"`/`name="…"` in its prose.
 */
export function anchorsOf(text) {
  const prose = proseOf(text);
  const lines = prose.split("\n");
  const slugger = createSlugger();
  const anchors = new Set();
  for (let i = 0; i < lines.length; i++) {
    const atx = /^ {0,3}#{1,6}(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/.exec(lines[i]);
    const setext =
      !atx &&
      i + 1 < lines.length &&
      /^ {0,3}(=+|-+)[ \t]*$/.test(lines[i + 1]) &&
      isParagraphLine(lines[i]) &&
      (i === 0 || lines[i - 1].trim() === "" || /^ {0,3}#/.test(lines[i - 1]));
    if (atx) anchors.add(slugger.slug(headingText(atx[1] ?? "")));
    else if (setext) anchors.add(slugger.slug(headingText(lines[i].trim())));
  }
  for (const match of withoutCodeSpans(prose).matchAll(/<[a-z][^>]*?\s(?:id|name)\s*=\s*["']([^"']+)["']/gi))
    anchors.add(match[1]);
  return anchors;
}

function isParagraphLine(line) {
  const trimmed = line.trim();
  return trimmed !== "" && !/^([-*+>|]|\d+[.)])\s/.test(trimmed) && !trimmed.startsWith("|");
}

/**
 * A heading's text as GitHub renders it (what its anchor is made of): code spans keep their content,
 * links their text, images and HTML tags go, emphasis markers and backslash escapes go.
 */
export function headingText(source) {
  return source
    .split(/(`+[^`]*?`+)/)
    .map((part, i) => {
      if (i % 2 === 1) return part.replace(/^`+ ?|( ?)`+$/g, "");
      return part
        .replace(/!\[[^\]]*\]\([^)]*\)/g, "")
        .replace(/\[([^\]]*)\](?:\([^)]*\)|\[[^\]]*\])?/g, "$1")
        .replace(/<[^>]+>/g, "")
        .replace(/&#(\d+);/g, (_, code) => String.fromCodePoint(Number(code)))
        .replace(/&[a-z]+;/gi, "")
        .replace(/(^|[^\p{L}\p{N}_\\])(_{1,3})(?=\S)(.*?\S)\2(?![\p{L}\p{N}_])/gu, "$1$3")
        .replace(/\\([!-/:-@[-`{-~])/g, "$1");
    })
    .join("")
    .trim();
}

// github-slugger: remove every character but letters, marks, decimal and letter numbers, connector
// punctuation (`_`), `-` and the space (alphabetic symbols stay); then each space becomes `-`.
const STRIP = /[^\p{L}\p{M}\p{Nd}\p{Nl}\p{Pc}\p{Alphabetic} -]/gu;

/** GitHub's slug of a heading's text, without the numbering of duplicates. */
export function slug(text) {
  return text.toLowerCase().replace(STRIP, "").replace(/ /g, "-");
}

/** A slugger for one file: the second heading of the same slug gets `-1`, the third `-2`, … */
export function createSlugger() {
  const seen = new Map();
  return {
    slug(text) {
      const base = slug(text);
      let result = base;
      while (seen.has(result)) {
        seen.set(base, seen.get(base) + 1);
        result = `${base}-${seen.get(base)}`;
      }
      seen.set(result, 0);
      return result;
    },
  };
}

function splitLines(text) {
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  if (lines.at(-1) === "") lines.pop();
  return lines;
}

function stripIndent(line, width) {
  let i = 0;
  while (i < width && line[i] === " ") i++;
  return line.slice(i);
}
