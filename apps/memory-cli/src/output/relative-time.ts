const UNITS: Array<[number, string]> = [
  [365 * 86_400, "y"],
  [30 * 86_400, "mo"],
  [7 * 86_400, "w"],
  [86_400, "d"],
  [3_600, "h"],
  [60, "m"],
];

/** "just now", "5m ago", "3d ago", "2y ago"; a time in the future reads "in 3d". */
export function relativeTime(iso: string, now: Date): string {
  const seconds = Math.round((now.getTime() - Date.parse(iso)) / 1000);
  const magnitude = Math.abs(seconds);
  if (magnitude < 60) return "just now";
  for (const [size, unit] of UNITS) {
    if (magnitude >= size) {
      const amount = `${Math.floor(magnitude / size)}${unit}`;
      return seconds >= 0 ? `${amount} ago` : `in ${amount}`;
    }
  }
  return "just now";
}
