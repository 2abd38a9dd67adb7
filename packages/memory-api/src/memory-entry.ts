import type { Metadata } from "./metadata.js";

/** "core" | "daily" | "conversation"; any other string is a custom category. */
export type MemoryCategory = "core" | "daily" | "conversation" | (string & {});

import type { RecallExplanation } from "./recall-explanation.js";

/** What recall searches: keywords and vectors ("hybrid"), vectors only, or keywords only ("bm25"). */
export type SearchMode = "hybrid" | "embedding" | "bm25";

/**
 * How hybrid recall merges the keyword and vector result lists: adaptive, reciprocal rank fusion, or fixed
 * weights.
 */
export type MergeStrategy =
  | { kind: "adaptive" }
  | { kind: "rrf"; k: number }
  | { kind: "weighted"; vectorWeight: number; keywordWeight: number };

/**
 * How conflict detection measures similarity: word overlap alone, or a weighted mix of word overlap, cosine
 * and BM25 overlap.
 */
export type ConflictMode =
  | { kind: "jaccard" }
  | { kind: "combined"; jaccardWeight: number; cosineWeight: number; bm25Weight: number };

/** Where an entry came from in a file: the path and the lines (workspace-indexed entries). */
export interface MemorySource {
  path: string;
  startLine: number;
  endLine: number;
}

/** One stored memory, as every Memory method returns it. */
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
