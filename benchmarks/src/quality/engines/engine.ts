import type { Conversation, Turn } from "../locomo-loader.js";

/**
 * A retrieval system under test. `index` replaces whatever was indexed before with one
 * conversation's turns, so each conversation is searched on its own, as an agent's memory would be.
 */
export interface RetrievalEngine {
  name: string;
  index(conversation: Conversation): Promise<void>;
  /** Turn ids (dia_ids), best first, at most `k`. */
  search(question: string, k: number): Promise<string[]>;
  close(): Promise<void>;
}

/**
 * The text every engine indexes for a turn, so that they compete on ranking alone. The speaker
 * is kept because questions name people ("When did Caroline …"); the image caption because some
 * answers are only in the picture.
 */
export function turnContent(turn: Turn): string {
  const base = `${turn.speaker}: ${turn.text}`;
  return turn.caption === undefined ? base : `${base} [image: ${turn.caption}]`;
}

/** A file name part from a conversation id ("conv-26"), safe on every file system. */
export function fileSafe(id: string): string {
  return id.replace(/[^A-Za-z0-9_-]+/g, "_");
}
