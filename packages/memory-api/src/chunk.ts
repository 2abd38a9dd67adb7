/** A piece of a Markdown document, produced by chunkMarkdown. Lines are 1-based and inclusive. */
export interface Chunk {
  text: string;
  startLine: number;
  endLine: number;
  /** The heading the piece sits under, repeated at the top of `text` for pieces after the first. */
  heading?: string;
  /** The titles of the headings the piece sits under, outermost first, joined by " > ". */
  headingPath?: string;
}
