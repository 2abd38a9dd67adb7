import { MemoryError } from "@claw/memory-api";

const ZONE = /(Z|[+-]\d{2}:?\d{2})$/i;

/**
 * Parses a timestamp written by us, a user or an older database. SQLite's CURRENT_TIMESTAMP form
 * ("2024-01-02 03:04:05") carries no zone and is UTC. Returns null when it is not a date.
 */
export function parseTimestamp(value: string | Date): Date | null {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value;
  if (typeof value !== "string") return null;
  let text = value.trim();
  if (text === "") return null;
  if (/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}/.test(text)) text = text.replace(" ", "T");
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(text) && !ZONE.test(text)) text += "Z";
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** RFC 3339 UTC with milliseconds, the one form stored so that text comparison orders by time. */
export function toIsoTimestamp(value: string | Date, field: string): string {
  // An export's timestamps are in that form already: checked as text, they need no Date (parsing
  // and formatting one was ~0.6 µs, twice per entry of an import that carries its dates).
  if (typeof value === "string" && isCanonical(value)) return value;
  const date = parseTimestamp(value);
  if (date === null) {
    throw MemoryError.invalidInput(field, `expected an RFC 3339 date, got ${JSON.stringify(String(value))}`);
  }
  return date.toISOString();
}

const CANONICAL = /^\d{4}-\d{2}-\d{2}T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d\.\d{3}Z$/;
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * Whether `text` is a date in the stored form that Date would give back unchanged: a real day of
 * its month (Date rolls "02-30" over into March), an hour below 24, years 0000–9999.
 */
function isCanonical(text: string): boolean {
  // test() and the digits read in place: exec() made an array and three strings per timestamp.
  if (!CANONICAL.test(text)) return false;
  const year = digitsAt(text, 0, 4);
  const month = digitsAt(text, 5, 7);
  const day = digitsAt(text, 8, 10);
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return day <= (month === 2 && leap ? 29 : (DAYS_IN_MONTH[month - 1] as number));
}

/** The number that the ASCII digits of `text` from `start` to `end` write. */
function digitsAt(text: string, start: number, end: number): number {
  let value = 0;
  for (let i = start; i < end; i++) value = value * 10 + text.charCodeAt(i) - 48;
  return value;
}

/**
 * `date.toISOString()`, remembered for the last time seen: an import stamps thousands of entries
 * with one `now`, and formatting it for each was ~0.4 µs an entry plus a string each to collect.
 */
export function isoOf(date: Date): string {
  const time = date.getTime();
  if (time !== lastIso.time) {
    lastIso.iso = date.toISOString();
    lastIso.time = time;
  }
  return lastIso.iso;
}

const lastIso = { time: Number.NaN, iso: "" };
