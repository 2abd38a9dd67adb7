import type { MemoryCategory } from "@claw/memory-api";
import { MemoryError } from "@claw/memory-api";

export const DEFAULT_HALF_LIFE_DAYS = 7;
/** The share of a score that recency never takes away (`decay_floor`); 0 is seed 000's formula. */
export const DEFAULT_DECAY_FLOOR = 0.95;

const MS_PER_DAY = 86_400_000;

/**
 * RFC 3339 date-time. The offset may be omitted (read as UTC) and a space may replace the "T",
 * because SQLite's CURRENT_TIMESTAMP writes "YYYY-MM-DD HH:MM:SS" in UTC.
 */
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})?)?$/;

/**
 * Bounded recency: `score × (floor + (1 − floor) × 2^(−age/halfLife))`. The decaying share halves
 * every `halfLifeDays`; `floor` of the score is kept whatever the age, so recency decides near-ties
 * but never buries a strong old match under a weak new one. `floor` 0 gives seed 000's
 * `score × 2^(−age/7)`. Negative (future) and unknown ages do not decay.
 */
export function applyDecay(
  score: number,
  ageDays: number,
  halfLifeDays: number = DEFAULT_HALF_LIFE_DAYS,
  floor = 0,
): number {
  if (typeof floor !== "number" || !(floor >= 0 && floor <= 1)) {
    throw MemoryError.invalidInput("floor", `must be a number in [0, 1], got ${String(floor)}`);
  }
  if (typeof halfLifeDays !== "number" || !Number.isFinite(halfLifeDays) || halfLifeDays <= 0) {
    throw MemoryError.invalidInput(
      "halfLifeDays",
      `must be a finite number above 0, got ${String(halfLifeDays)}`,
    );
  }
  const age = Number.isNaN(ageDays) || ageDays < 0 ? 0 : ageDays;
  const kept = 2 ** (-age / halfLifeDays);
  return floor === 0 ? score * kept : score * (floor + (1 - floor) * kept);
}

/**
 * applyDecay, except that "core" memories (which MEMORY.md and bank/ pages are indexed as) are
 * permanent facts and never decay.
 */
export function decayFor(
  category: MemoryCategory,
  score: number,
  ageDays: number,
  halfLifeDays: number = DEFAULT_HALF_LIFE_DAYS,
  floor = 0,
): number {
  const decayed = applyDecay(score, ageDays, halfLifeDays, floor);
  return category === "core" ? score : decayed;
}

/**
 * Days from `timestamp` (RFC 3339) to `now`, fractional. An unparseable timestamp or `now`, or a
 * timestamp in the future (clock skew), gives 0 so that it never penalises a memory.
 */
export function ageInDays(timestamp: string, now: Date): number {
  const time = parseRfc3339(timestamp);
  const nowMs = now instanceof Date ? now.getTime() : Number.NaN;
  if (time === null || Number.isNaN(nowMs)) return 0;
  return Math.max(0, (nowMs - time) / MS_PER_DAY);
}

/** Parsed timestamps: recall reads the same few thousand `updated_at` values over and over. */
const parsed = new Map<string, number | null>();
const PARSED_MAX = 8192;

function parseRfc3339(timestamp: string): number | null {
  if (typeof timestamp !== "string") return null;
  const known = parsed.get(timestamp);
  if (known !== undefined) return known;
  if (parsed.size >= PARSED_MAX) parsed.clear();
  const time = parseUncached(timestamp);
  parsed.set(timestamp, time);
  return time;
}

function parseUncached(timestamp: string): number | null {
  const m = RFC3339.exec(timestamp.trim());
  if (m === null) return null;
  const [year, month, day, hour, minute, second] = [m[1], m[2], m[3], m[4], m[5], m[6]].map((part) =>
    Number(part ?? "0"),
  ) as [number, number, number, number, number, number];
  if (hour > 23 || minute > 59 || second > 60) return null;
  const date = new Date(0);
  // setUTCFullYear, unlike Date.UTC, does not read years 0..99 as 1900..1999.
  date.setUTCFullYear(year, month - 1, day);
  if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  // A leap second (:60) is valid RFC 3339 but not representable; it counts as the end of :59.
  date.setUTCHours(hour, minute, Math.min(second, 59), 0);
  let ms = date.getTime() + (m[7] === undefined ? 0 : Number(m[7]) * 1000);
  const offset = m[8];
  if (offset !== undefined && offset.toUpperCase() !== "Z") {
    const offHours = Number(offset.slice(1, 3));
    const offMinutes = Number(offset.slice(4, 6));
    if (offHours > 23 || offMinutes > 59) return null;
    const sign = offset.startsWith("-") ? -1 : 1;
    ms -= sign * (offHours * 60 + offMinutes) * 60_000;
  }
  return ms;
}
