// The generated block of a bank page: the part reflect() owns inside a page the user may also
// edit. A leaf module (it imports nothing of its siblings): retain reads pages through it too.
const BEGIN = "<!-- claw-memory:reflect:begin";
const END = "<!-- claw-memory:reflect:end -->";
const BLOCK =
  /<!-- claw-memory:reflect:begin(?: digest=([0-9a-f]+))? -->[\s\S]*?<!-- claw-memory:reflect:end -->/;
const NOTE =
  "_Maintained by `reflect` from the `## Retain` sections of the daily files. Edits inside this block are replaced; edits outside it are kept._";

/**
 * The page with `body` as its generated block: a new page gets a title; an existing one keeps
 * everything outside the block (the block is appended when it had none). The block carries the
 * body's digest, so an unchanged page is recognised without rendering the summary again.
 */
export function composePage(existing: string | null, title: string, body: string, digest: string): string {
  const block = `${BEGIN} digest=${digest} -->\n${NOTE}\n\n${body}\n${END}`;
  if (existing === null || existing.trim() === "") return `# ${clean(title)}\n\n${block}\n`;
  if (BLOCK.test(existing)) return existing.replace(BLOCK, () => block);
  return `${existing.trimEnd()}\n\n${block}\n`;
}

/** The page without its generated block: the part the user writes. */
export function userPartOf(page: string): string {
  return page.replace(BLOCK, "");
}

/** The digest recorded in a page's block, if it has one. */
export function digestOf(page: string | null): string | undefined {
  return page === null ? undefined : (BLOCK.exec(page)?.[1] ?? undefined);
}

/** Text from the files must not close the generated block or open a comment. */
export function clean(text: string): string {
  return text.replace(/<!--/g, "&lt;!--").replace(/-->/g, "--&gt;");
}
