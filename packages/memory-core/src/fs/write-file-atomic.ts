import { randomBytes } from "node:crypto";
import { mkdir, open, rename, rm } from "node:fs/promises";
import { dirname, join } from "node:path";

/**
 * Writes `text` to `path` so that a crash leaves either the old file or the new one, never a
 * half-written file: a temp file in the same folder, fsync, then rename over the target. `text`
 * may come in chunks (an iterable, sync or async), written as they come: constant memory however
 * large the file, and nothing replaced when producing a chunk fails.
 */
export async function writeFileAtomic(
  path: string,
  text: string | Iterable<string> | AsyncIterable<string>,
  options: { mode?: number } = {},
): Promise<void> {
  const dir = dirname(path);
  await mkdir(dir, { recursive: true });
  const temp = join(dir, `.${randomBytes(6).toString("hex")}.tmp`);
  try {
    // Private by default (memories, state); pages meant for people pass 0o644.
    const handle = await open(temp, "w", options.mode ?? 0o600);
    try {
      if (typeof text === "string") await handle.writeFile(text, "utf8");
      else for await (const chunk of text) await handle.write(chunk, null, "utf8");
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}
