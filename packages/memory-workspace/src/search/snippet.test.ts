import { describe, expect, it } from "vitest";
import { snippetOf } from "./snippet.js";

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
