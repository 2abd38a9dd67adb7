/**
 * Line prefixes of text that automation or memory itself produced (seed 000): scheduled jobs,
 * health checks, consolidation artefacts and the recalled-memory block. Saving them would feed
 * memory its own output.
 */
export const AUTOSAVE_SKIP_PREFIXES: readonly string[] = [
  "[cron:",
  "[heartbeat",
  "[distilled_",
  "[memory context]",
];

/** True when `content` is empty or any of its lines starts with one of the skip prefixes. */
export function shouldSkipAutosave(content: string): boolean {
  if (typeof content !== "string" || content.trim() === "") return true;
  for (const line of content.split("\n")) {
    const start = line.trimStart().toLowerCase();
    if (AUTOSAVE_SKIP_PREFIXES.some((prefix) => start.startsWith(prefix))) return true;
  }
  return false;
}
