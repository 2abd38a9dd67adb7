// The validated requests every storage engine receives: what the façade's checks turn a Memory
// method's arguments into (read-requests.ts, write-requests.ts).
import type { MemoryCategory, SearchMode } from "@claw/memory-api";

/** The filters recall, list, export and count share, already validated and normalised. */
export interface EntryFilter {
  /** undefined or "*" = every namespace. */
  namespace?: string;
  sessionId?: string;
  /** Inclusive, RFC 3339 UTC. */
  since?: string;
  /** Exclusive, RFC 3339 UTC. */
  until?: string;
  categories?: readonly MemoryCategory[];
  includeSuperseded?: boolean;
}

/** One recall, validated. */
export interface RecallRequest {
  query: string;
  limit: number;
  mode: SearchMode;
  filter: EntryFilter;
  minScore?: number;
  withEmbeddings: boolean;
  signal?: AbortSignal;
  /** Ages are measured from here; default the store's clock. */
  now?: Date;
}
