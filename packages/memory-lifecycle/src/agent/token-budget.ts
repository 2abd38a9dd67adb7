/** The chunker's rule of thumb: about four characters per token. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** One line of a memory block: newlines folded so one memory is one bullet. */
export function bulletOf(text: string): string {
  return `- ${text.replace(/\s*\n\s*/g, " ").trim()}`;
}
