import { describe, expect, it } from "vitest";
import { snippetOf } from "./snippet.js";
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
    expect(parseTimeBound(undefined, NOW, "since")).toBeUndefined();
  });

  it("names the field it refuses", () => {
    expect(() => parseTimeBound("soon", NOW, "until")).toThrow(
      'until: expected "30d", "12h", "2w", a date or a timestamp, got "soon"',
    );
    expect(() => parseTimeBound(42, NOW, "since")).toThrow("since:");
    expect(() => parseTimeBound(new Date("nope"), NOW, "since")).toThrow("since: is an invalid Date");
  });
});

describe("snippetOf", () => {
  it("returns short content whole", () => {
    expect(snippetOf("short text", "text")).toBe("short text");
  });

  it("cuts long content to the limit around the first query word, on code points", () => {
    const content = `${"前".repeat(500)} marker ${"后".repeat(500)}`;
    const snippet = snippetOf(content, "Marker", 100);
    expect(Array.from(snippet)).toHaveLength(100);
    expect(snippet).toContain("marker");
    expect(snippet.startsWith("…") && snippet.endsWith("…")).toBe(true);
    expect(snippetOf(content, "absent", 50)).toBe(`${"前".repeat(49)}…`);
    expect(Array.from(snippetOf(content, "后", 50))).toHaveLength(50);
  });
});
