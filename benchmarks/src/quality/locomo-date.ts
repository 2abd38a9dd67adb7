/**
 * LoCoMo's session times ("1:56 pm on 8 May, 2023") as RFC 3339. The dataset carries no time
 * zone, so the wall-clock time is read as UTC: only the order of sessions matters to recall.
 */

const MONTHS = [
  "january",
  "february",
  "march",
  "april",
  "may",
  "june",
  "july",
  "august",
  "september",
  "october",
  "november",
  "december",
];

const SESSION_TIME = /^\s*(\d{1,2}):(\d{2})\s*([ap])\.?m\.?\s+on\s+(\d{1,2})\s+([a-z]+)\.?,?\s+(\d{4})\s*$/i;

/** Month index 0..11 for a full English month name or its first three letters, else -1. */
export function monthIndex(name: string): number {
  const lower = name.toLowerCase();
  if (lower.length < 3) return -1;
  return MONTHS.findIndex((m) => m === lower || (lower.length === 3 && m.startsWith(lower)));
}

/**
 * "1:56 pm on 8 May, 2023" → "2023-05-08T13:56:00Z". Returns null when the text is not of that
 * shape or names an impossible date (31 June, 13:00 pm), so the caller can say where it was.
 */
export function parseSessionDateTime(text: string): string | null {
  const match = SESSION_TIME.exec(text);
  if (match === null) return null;
  const [, hourText, minuteText, meridiem, dayText, monthText, yearText] = match;
  const hour12 = Number(hourText);
  const minute = Number(minuteText);
  const day = Number(dayText);
  const year = Number(yearText);
  const month = monthIndex(monthText ?? "");
  if (month < 0 || hour12 < 1 || hour12 > 12 || minute > 59) return null;
  // 12 am is midnight and 12 pm is noon.
  const hour = (hour12 % 12) + (meridiem?.toLowerCase() === "p" ? 12 : 0);
  const date = new Date(Date.UTC(year, month, day, hour, minute));
  // Date.UTC rolls 31 June over to 1 July; a round trip catches it.
  if (date.getUTCMonth() !== month || date.getUTCDate() !== day) return null;
  return `${date.toISOString().slice(0, 19)}Z`;
}
