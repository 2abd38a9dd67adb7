import { MemoryError } from "@claw/memory-api";
import { parseTimestamp } from "../timestamps.js";

const RELATIVE = /^(\d+(?:\.\d+)?)\s*(m|h|d|w|y)$/i;
const EXPECTED = 'expected an age ("7d", "12h", "2w"), a date (2026-11-01) or an RFC 3339 timestamp';
const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** RFC 3339 (a space for the T, seconds and the zone optional, as people write it). */
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:[Zz]|[+-]\d{2}:?\d{2})?$/;
const UNIT_MS: Readonly<Record<string, number>> = {
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
  y: 31_536_000_000,
};

/**
 * `since`/`until` as every interface takes them (library, CLI, HTTP, MCP, workspace search): an
 * age before `now` ("30m", "12h", "7d", "2w", "1y"), a day "2025-11-27" (00:00 UTC), an RFC 3339
 * timestamp or a Date. Returns an RFC 3339 string; INVALID_INPUT naming `field` for anything else.
 */
export function parseTimeBound(value: unknown, now: Date, field: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) throw MemoryError.invalidInput(field, "is an invalid Date");
    return value.toISOString();
  }
  if (typeof value !== "string" || value.trim() === "") throw MemoryError.invalidInput(field, EXPECTED);
  const text = value.trim();
  const relative = RELATIVE.exec(text);
  if (relative !== null) {
    const ms = Number(relative[1]) * (UNIT_MS[(relative[2] as string).toLowerCase()] as number);
    return new Date(now.getTime() - ms).toISOString();
  }
  const time = DAY.test(text)
    ? Date.parse(`${text}T00:00:00.000Z`)
    : TIMESTAMP.test(text)
      ? (parseTimestamp(text)?.getTime() ?? Number.NaN)
      : Number.NaN;
  if (Number.isNaN(time))
    throw MemoryError.invalidInput(
      field,
      `${EXPECTED}, got "${text.length > 40 ? `${text.slice(0, 40)}…` : text}"`,
    );
  return new Date(time).toISOString();
}

const TTL_EXPECTED = 'expected an age such as "30m", "12h", "7d", "2w" or "1y"';

/** A time to live ("30m", "12h", "7d", "2w", "1y") as the RFC 3339 moment it ends, after `now`. */
export function expiryAfter(value: unknown, now: Date, field: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  const relative = typeof value === "string" ? RELATIVE.exec(value.trim()) : null;
  if (relative === null) throw MemoryError.invalidInput(field, TTL_EXPECTED);
  const ms = Number(relative[1]) * (UNIT_MS[(relative[2] as string).toLowerCase()] as number);
  if (!(ms > 0)) throw MemoryError.invalidInput(field, `${TTL_EXPECTED}, longer than zero`);
  return new Date(now.getTime() + ms).toISOString();
}
