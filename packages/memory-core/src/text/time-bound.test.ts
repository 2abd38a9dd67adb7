import { describe, expect, it } from "vitest";
import { parseTimeBound } from "./time-bound.js";

const NOW = new Date("2026-11-21T12:00:00.000Z");

describe("parseTimeBound", () => {
  it("reads relative spans, days, timestamps and Dates", () => {
    expect(parseTimeBound("30d", NOW, "since")).toBe("2026-10-22T12:00:00.000Z");
    expect(parseTimeBound("12h", NOW, "since")).toBe("2026-11-21T00:00:00.000Z");
    expect(parseTimeBound("2W", NOW, "since")).toBe("2026-11-07T12:00:00.000Z");
    expect(parseTimeBound("2026-11-01", NOW, "since")).toBe("2026-11-01T00:00:00.000Z");
    expect(parseTimeBound("2026-11-01T08:30:00+02:00", NOW, "since")).toBe("2026-11-01T06:30:00.000Z");
    expect(parseTimeBound(new Date("2026-01-02T03:04:05Z"), NOW, "until")).toBe("2026-01-02T03:04:05.000Z");
    expect(parseTimeBound("90m", NOW, "since")).toBe("2026-11-21T10:30:00.000Z");
    expect(parseTimeBound("1y", NOW, "since")).toBe("2025-11-21T12:00:00.000Z");
    expect(parseTimeBound(undefined, NOW, "since")).toBeUndefined();
  });

  it("names the field it refuses", () => {
    expect(() => parseTimeBound("soon", NOW, "until")).toThrow(
      'until: expected an age ("7d", "12h", "2w"), a date (2026-11-01) or an RFC 3339 timestamp, got "soon"',
    );
    // Loose forms Date.parse would take are refused: only the forms above mean a time.
    expect(() => parseTimeBound("5", NOW, "since")).toThrow("since:");
    expect(() => parseTimeBound("March 3", NOW, "since")).toThrow("since:");
    expect(() => parseTimeBound(42, NOW, "since")).toThrow("since:");
    expect(() => parseTimeBound(new Date("nope"), NOW, "since")).toThrow("since: is an invalid Date");
  });
});
