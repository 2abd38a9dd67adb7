// The link check: every relative link and image of a Markdown file points at a file that exists, and
// an anchor (`file.md#part`, `#part`) at a heading of that Markdown file as GitHub slugs it. External
// links (any `scheme:` or `//host`) are not checked; nor paths under a generated, git-ignored folder.
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, relative, resolve, sep } from "node:path";
import { anchorsOf, lineAt, proseOf, withoutCodeSpans } from "./markdown.mjs";

/** Folders written by a command (`pnpm docs`), not committed: links into them are not checked. */
export const GENERATED = ["docs/api"];

const INLINE =
  /(!?)\[((?:[^[\]]|\[[^[\]]*\])*)\]\(\s*(<[^>\n]*>|(?:[^\s()]|\([^\s()]*\))*)(?:\s+(?:"[^"]*"|'[^']*'|\([^)]*\)))?\s*\)/g;
const DEFINITION = /^ {0,3}\[([^\]^][^\]]*)\]:[ \t]*(<[^>\n]*>|\S+)/gm;
const HTML = /<(?:a|img|source)\b[^>]*?\s(?:href|src)\s*=\s*["']([^"']*)["']/gi;

/** The links of a Markdown text outside code: `{ line, text, target }`, in order. */
export function linksOf(text) {
  const raw = proseOf(text);
  const prose = withoutCodeSpans(raw); // the same length: the link text is read from `raw`
  const found = [];
  for (const m of prose.matchAll(INLINE)) {
    const label = raw.slice(m.index, m.index + m[1].length + m[2].length + 2).replace(/\s+/g, " ");
    found.push({ index: m.index, text: label, target: m[3] });
  }
  for (const m of prose.matchAll(DEFINITION))
    found.push({ index: m.index, text: `[${m[1]}]:`, target: m[2] });
  for (const m of prose.matchAll(HTML)) found.push({ index: m.index, text: "<html>", target: m[1] });
  return found
    .sort((a, b) => a.index - b.index)
    .map(({ index, text: label, target }) => ({
      line: lineAt(prose, index),
      text: label,
      target: target.replace(/^<(.*)>$/, "$1"),
    }));
}

/**
 * Checks the links of `file`. Returns `{ checked, broken: [{ line, text, target, reason }] }`;
 * `root` is the repository (for `/path` links and the generated folders).
 */
export function checkLinks(file, root, anchorCache = new Map()) {
  const text = readFileSync(file, "utf8");
  const broken = [];
  let checked = 0;
  for (const link of linksOf(text)) {
    const reason = problemOf(link.target, file, root, anchorCache);
    if (reason === undefined) continue;
    checked++;
    if (reason) broken.push({ ...link, reason });
  }
  return { checked, broken };
}

/** `undefined` when the link is not ours to check, `""` when it is fine, else what is wrong. */
function problemOf(target, file, root, anchorCache) {
  if (target === "" || /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("//")) return undefined;
  const hash = target.indexOf("#");
  const rawPath = (hash === -1 ? target : target.slice(0, hash)).replace(/\?.*$/, "");
  const anchor = hash === -1 ? undefined : decode(target.slice(hash + 1));
  const path =
    rawPath === ""
      ? file
      : resolve(rawPath.startsWith("/") ? root : dirname(file), `.${sep}${decode(rawPath)}`);
  const fromRoot = relative(root, path).split(sep).join("/");
  if (GENERATED.some((dir) => fromRoot === dir || fromRoot.startsWith(`${dir}/`))) return undefined;
  if (!existsSync(path)) return `${displayPath(path, root)} does not exist`;
  if (anchor === undefined || anchor === "" || !/\.(md|markdown)$/i.test(path) || !statSync(path).isFile())
    return "";
  if (!anchorCache.has(path)) anchorCache.set(path, anchorsOf(readFileSync(path, "utf8")));
  if (anchorCache.get(path).has(anchor)) return "";
  return `no heading with anchor #${anchor} in ${displayPath(path, root)}`;
}

function decode(text) {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** A path as the report shows it: relative to the repository when inside it. */
export function displayPath(path, root) {
  const rel = relative(root, path);
  return rel.startsWith("..") || rel === "" ? path : rel.split(sep).join("/");
}
