import { readFile } from "node:fs/promises";
import { writeFileAtomic } from "@claw/memory-core";

/** Workspace pages are the user's Markdown: readable like any file they made themselves. */
export function writePageAtomic(path: string, text: string): Promise<void> {
  return writeFileAtomic(path, text, { mode: 0o644 });
}

/** writePageAtomic unless the file already holds exactly `text`; true when it wrote. */
export async function writeIfChanged(path: string, text: string): Promise<boolean> {
  const current = await readFile(path, "utf8").catch(() => null);
  if (current === text) return false;
  await writePageAtomic(path, text);
  return true;
}
