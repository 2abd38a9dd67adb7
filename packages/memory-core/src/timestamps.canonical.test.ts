import { isMemoryError } from "@claw/memory-api";
import { describe, expect, it } from "vitest";
import { toIsoTimestamp } from "./timestamps.js";

/** What Date makes of a string: the stored form, or null when it is not a date. */
function viaDate(text: string): string | null {
  const time = Date.parse(text);
  return Number.isNaN(time) ? null : new Date(time).toISOString();
}

function stored(text: string): string | null {
  try {
    return toIsoTimestamp(text, "createdAt");
  } catch (error) {
    if (isMemoryError(error, "INVALID_INPUT")) return null;
    throw error;
  }
}

const pad = (n: number, width: number) => String(n).padStart(width, "0");

describe("timestamps already in the stored form", () => {
  it("are stored exactly as Date would store them, on every day edge of leap and common years", () => {
    const texts: string[] = [];
    for (const year of [0, 1, 1900, 1999, 2000, 2023, 2024, 2100, 2400, 9999]) {
      for (let month = 0; month <= 13; month++) {
        for (const day of [0, 1, 28, 29, 30, 31, 32]) {
          for (const time of [
            "00:00:00.000",
            "23:59:59.999",
            "24:00:00.000",
            "12:60:00.000",
            "12:00:60.000",
          ]) {
            texts.push(`${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}T${time}Z`);
          }
        }
      }
    }
    expect(texts.length).toBe(10 * 14 * 7 * 5);
    const differing = texts.filter((text) => stored(text) !== viaDate(text));
    expect(differing).toEqual([]);
    // Both kinds occur: days Date rolls over into the next month are normalised, not kept.
    expect(stored("2023-02-29T10:00:00.000Z")).toBe("2023-03-01T10:00:00.000Z");
    expect(stored("2024-02-29T10:00:00.000Z")).toBe("2024-02-29T10:00:00.000Z");
    expect(stored("2026-01-01T24:00:00.000Z")).toBe("2026-01-02T00:00:00.000Z");
    expect(stored("2026-13-01T00:00:00.000Z")).toBeNull();
  });

  it("leaves other forms to Date: offsets, no milliseconds, SQLite's form", () => {
    expect(stored("2026-05-08T10:00:00+02:00")).toBe("2026-05-08T08:00:00.000Z");
    expect(stored("2026-05-08T10:00:00Z")).toBe("2026-05-08T10:00:00.000Z");
    expect(stored("2026-05-08 10:00:00")).toBe("2026-05-08T10:00:00.000Z");
    expect(stored(" 2026-05-08T10:00:00.000Z")).toBe("2026-05-08T10:00:00.000Z");
    expect(stored("2026-05-08T10:00:00.000z")).toBe("2026-05-08T10:00:00.000Z");
  });
});
