/**
 * What an entry is indexed with besides its own words, at a lower weight: its date in the forms
 * people ask for it ("2023-05-08", "May 2023", "8 May", "Monday") and, for a conversation turn,
 * the turn before it in its session, which is what it answers ("For walking or running?" names
 * neither). Shared by the storage engines so that both index the same context.
 */
import { parseTimestamp } from "../timestamps.js";

/** The month and weekday names of the date forms. */
export const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];
export const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

/** The previous turn is cut to this many characters: enough for what a question repeats of it. */
export const PREVIOUS_TURN_MAX_CHARS = 500;

/** "2023-05-08 8 May 2023 Monday" for an RFC 3339 time (its UTC date), or "" when unparseable. */
export function dateContext(timestamp: string): string {
  // A bulk import writes many entries of one day: the forms are computed once per UTC day.
  const utc = timestamp.endsWith("Z");
  const day = timestamp.slice(0, 10);
  const cached = utc ? days.get(day) : undefined;
  if (cached !== undefined) return cached;
  const forms = dateForms(timestamp);
  if (utc && forms.startsWith(day)) {
    if (days.size >= DAYS_MAX) days.clear();
    days.set(day, forms);
  }
  return forms;
}

const days = new Map<string, string>();
const DAYS_MAX = 4096;

function dateForms(timestamp: string): string {
  const date = parseTimestamp(timestamp);
  if (date === null) return "";
  const year = date.getUTCFullYear();
  if (year < 1 || year > 9999) return "";
  const month = MONTHS[date.getUTCMonth()] as string;
  const day = date.getUTCDate();
  const iso = date.toISOString().slice(0, 10);
  return `${iso} ${day} ${month} ${year} ${WEEKDAYS[date.getUTCDay()] as string}`;
}

/**
 * The context text of an entry written at `createdAt`, with the caller's `extra` context
 * (MemoryEntry.context) and after `previousTurn` (null: none).
 */
export function entryContext(
  createdAt: string,
  previousTurn: string | null,
  extra: string | null = null,
): string {
  const date =
    extra === null || extra === "" ? dateContext(createdAt) : `${dateContext(createdAt)}\n${extra}`;
  if (previousTurn === null || previousTurn === "") return date;
  const previous =
    previousTurn.length > PREVIOUS_TURN_MAX_CHARS
      ? previousTurn.slice(0, PREVIOUS_TURN_MAX_CHARS)
      : previousTurn;
  return `${date}\n${previous}`;
}
