const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/**
 * Cuts `text` to at most `maxChars` characters (grapheme clusters, so an emoji or an accented
 * letter is never split), backing off to the last whitespace when the cut falls inside a word and
 * a whitespace exists in the second half of the kept text; "…" marks the cut. Text without spaces
 * (Chinese, Japanese) is cut at the character limit.
 */
export function truncateAtWord(text: string, maxChars: number): string {
  const clusters = Array.from(graphemes.segment(text), (s) => s.segment);
  if (clusters.length <= maxChars) return text;
  let cut = Math.max(1, maxChars - 1); // room for the ellipsis
  const insideWord = !/\s/u.test(clusters[cut] ?? " ") && !/\s/u.test(clusters[cut - 1] ?? " ");
  if (insideWord) {
    for (let i = cut - 1; i >= Math.floor(cut / 2); i--) {
      if (/\s/u.test(clusters[i] as string)) {
        cut = i;
        break;
      }
    }
  }
  return `${clusters.slice(0, cut).join("").trimEnd()}…`;
}
