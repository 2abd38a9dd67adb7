import type { MemoryEntry } from "./memory-entry.js";

/** One side of a conflict comparison. Without an embedding, combined mode degrades to Jaccard. */
export interface ConflictSide {
  content: string;
  embedding?: Float32Array | null;
}

/** A sign that two similar memories disagree: a negation, a changed preference, or a newer time. */
export type ContradictionSignal = "negation" | "preference" | "temporal";

/** How much two memories conflict, and the parts of the score. */
export interface ConflictScore {
  /** Word-set Jaccard overlap, 0..1. */
  jaccard: number;
  /** Cosine of the two embeddings, when both sides have one. */
  cosine?: number;
  /** BM25 overlap of the two texts, 0..1, in combined mode with embeddings. */
  bm25?: number;
  /** The combined (or Jaccard) similarity. */
  similarity: number;
  /** Sum of the contradiction boosts (before the ×0.3 weight). */
  contradiction: number;
  /** similarity + contradiction × 0.3. */
  total: number;
  signals: ContradictionSignal[];
  /** "combined" only when both sides had embeddings. */
  mode: "jaccard" | "combined";
}

/** What consolidating one turn wrote. */
export interface ConsolidationResult {
  /** The Daily entry written for the turn. */
  daily: MemoryEntry | null;
  /** The Core entry the turn was promoted to, when its importance reached the threshold. */
  core: MemoryEntry | null;
  /** Keys the promoted entry superseded. */
  superseded: string[];
  /** Why nothing was written (autosave filter, empty turn). */
  skipped?: string;
}

/** How long conversation and daily entries are kept before hygiene prunes them. */
export interface RetentionConfig {
  conversationRetentionDays: number;
  dailyRetentionDays: number;
  minRetentionFloor?: number;
  conversationRetentionFloor?: number;
  dailyRetentionFloor?: number;
}

/** What one hygiene run pruned and deleted. */
export interface HygieneReport {
  /** False when the last run was less than the interval ago (and force was not given). */
  ran: boolean;
  /** RFC 3339 time of this check. */
  at: string;
  /** When the previous run happened, if ever. */
  previousRunAt?: string;
  /** Entries deleted per category. */
  pruned: Record<string, number>;
  /** Of those, how many were superseded entries. */
  prunedSuperseded: number;
  /** Entries that had expired but were kept to honour a retention floor. */
  keptByFloor: number;
  /** Entries deleted because their own `expiresAt` had passed (any category). */
  expired: number;
  /** Keys deleted past their category's retention, as `namespace/key`. */
  deletedKeys: string[];
}

/** Entries the curator merged into one. */
export interface MergeGroup {
  /** The keys merged (the survivor included). */
  keys: string[];
  /** The key that holds the merged content. */
  into: string;
  content: string;
  namespace: string;
}

/** What one curator run deleted and merged (or, in a dry run, would have). */
export interface CurateReport {
  deleted: string[];
  merged: MergeGroup[];
  totalBefore: number;
  totalAfter: number;
  dryRun: boolean;
  /** Proposals refused: unknown keys, core deletions, deletions over the cap. */
  refused: string[];
  /** Generator failures and malformed answers; the pages they came from changed nothing. */
  errors: string[];
}
