import { MemoryError } from "@claw/memory-api";

const RELATIVE = /^(\d+(?:\.\d+)?)\s*(h|d|w)$/i;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const UNIT_MS: Readonly<Record<string, number>> = { h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/**
 * `since`/`until` as the CLI takes them: "30d", "12h", "2w" (before `now`), a day "2025-11-27"
 * (00:00 UTC), an RFC 3339 timestamp or a Date. Returns an RFC 3339 string; INVALID_INPUT naming
 * `field` for anything else.
 */
export function parseTimeBound(value: unknown, now: Date, field: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) throw MemoryError.invalidInput(field, "is an invalid Date");
    return value.toISOString();
  }
  if (typeof value !== "string" || value.trim() === "")
    throw MemoryError.invalidInput(field, 'expected "30d", "12h", "2w", a date or a timestamp');
  const text = value.trim();
  const relative = RELATIVE.exec(text);
  if (relative !== null) {
    const ms = Number(relative[1]) * (UNIT_MS[(relative[2] as string).toLowerCase()] as number);
    return new Date(now.getTime() - ms).toISOString();
  }
  const time = DAY.test(text) ? Date.parse(`${text}T00:00:00.000Z`) : Date.parse(text);
  if (Number.isNaN(time))
    throw MemoryError.invalidInput(
      field,
      `expected "30d", "12h", "2w", a date or a timestamp, got "${text}"`,
    );
  return new Date(time).toISOString();
}
