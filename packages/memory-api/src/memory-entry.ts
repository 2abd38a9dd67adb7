import type { Metadata } from "./metadata.js";

/** "core" | "daily" | "conversation"; any other string is a custom category. */
export type MemoryCategory = "core" | "daily" | "conversation" | (string & {});

import type { RecallExplanation } from "./recall-explanation.js";

export type SearchMode = "hybrid" | "embedding" | "bm25";

export type MergeStrategy =
  | { kind: "adaptive" }
  | { kind: "rrf"; k: number }
  | { kind: "weighted"; vectorWeight: number; keywordWeight: number };

export type ConflictMode =
  | { kind: "jaccard" }
  | { kind: "combined"; jaccardWeight: number; cosineWeight: number; bm25Weight: number };

export interface MemorySource {
  path: string;
  startLine: number;
  endLine: number;
}

export interface MemoryEntry {
  /** uuid */
  id: string;
  /** Unique within its namespace. */
  key: string;
  content: string;
  category: MemoryCategory;
  /** "default" unless given. */
  namespace: string;
  sessionId?: string;
  /** 0..1 */
  importance?: number;
  /** Key of the entry that replaced this one. */
  supersededBy?: string;
  /** RFC 3339, UTC. */
  createdAt: string;
  updatedAt: string;
  /** = updatedAt (the seed's field). */
  timestamp: string;
  /** Set by recall. */
  score?: number;
  /** Set by recall with `explain: true`: the parts of `score`. */
  explain?: RecallExplanation;
  /** Only when recall(..., { withEmbeddings: true }) or export({ includeEmbeddings: true }). */
  embedding?: Float32Array;
  /** Entries indexed from Markdown files. */
  source?: MemorySource;
  /**
   * Words the entry is also found by, at a lower weight than its content, without being part of
   * it: e.g. the heading path of a document chunk. Indexed beside the entry's date and, for a
   * session turn, the turn before it.
   */
  context?: string;
  /** The caller's own fields (a JSON object); `where` filters on them. */
  metadata?: Metadata;
  /** RFC 3339, UTC: from then on the entry is treated as gone (StoreOptions.expiresAt). */
  expiresAt?: string;
}
