import type { MemoryEntry } from "@claw/memory-api";

/** How long one category's entries are kept, and how many always stay. */
export interface CategoryRetention {
  /** Entries not updated for this many days have expired. */
  days: number;
  /** How many non-superseded entries of the category (per namespace) always stay. */
  floor: number;
}

export interface PrunePlan {
  delete: MemoryEntry[];
  prunedSuperseded: number;
  keptByFloor: number;
}

/**
 * Which entries of one category in one namespace to delete (seed 000's floor rule): superseded
 * entries go once expired and never count toward the floor; of the expired active ones, the
 * oldest go, but only as many as keep `floor` active entries.
 */
export function planPrune(
  entries: readonly MemoryEntry[],
  retention: CategoryRetention,
  now: Date,
): PrunePlan {
  const cutoff = now.getTime() - retention.days * 86_400_000;
  const expired = (e: MemoryEntry) => Date.parse(e.updatedAt) < cutoff;
  const superseded = entries.filter((e) => e.supersededBy !== undefined);
  const active = entries.filter((e) => e.supersededBy === undefined);
  const expiredSuperseded = superseded.filter(expired);
  const expiredActive = active
    .filter(expired)
    .sort((a, b) => a.updatedAt.localeCompare(b.updatedAt) || a.key.localeCompare(b.key));
  const allowed = Math.max(0, active.length - retention.floor);
  const deletedActive = expiredActive.slice(0, allowed);
  return {
    delete: [...expiredSuperseded, ...deletedActive],
    prunedSuperseded: expiredSuperseded.length,
    keptByFloor: expiredActive.length - deletedActive.length,
  };
}
