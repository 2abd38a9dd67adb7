import { describe, expect, it } from "vitest";
import { classifyPath, dateOfName, toRelativePath } from "./workspace-paths.js";

describe("classifyPath", () => {
  it("gives MEMORY.md and bank pages core, dated files daily, other memory files note", () => {
    expect(classifyPath("MEMORY.md", [])).toEqual({ category: "core" });
    expect(classifyPath("memory.md", [])).toEqual({ category: "core" });
    expect(classifyPath("bank/entities/Alice.md", [])).toEqual({ category: "core" });
    expect(classifyPath("memory/2026-11-27.md", [])).toEqual({ category: "daily", date: "2026-11-27" });
    expect(classifyPath("memory/2026/2026-11-27-standup.md", [])).toEqual({
      category: "daily",
      date: "2026-11-27",
    });
    expect(classifyPath("memory/projects/x.md", [])).toEqual({ category: "note" });
    expect(classifyPath("memory/2026-02-30.md", [])).toEqual({ category: "note" });
    expect(classifyPath("projects/x.md", ["projects"])).toEqual({ category: "note" });
  });

  it("refuses everything else", () => {
    expect(classifyPath("notes.md", [])).toBeNull();
    expect(classifyPath("memory/data.json", [])).toBeNull();
    expect(classifyPath("sub/MEMORY.md", [])).toBeNull();
    expect(classifyPath("projects-old/x.md", ["projects"])).toBeNull();
  });
});

describe("paths", () => {
  it("normalises separators and refuses '..'", () => {
    expect(toRelativePath("./memory//a.md")).toBe("memory/a.md");
    expect(toRelativePath("memory\\a.md")).toBe("memory/a.md");
    expect(toRelativePath("memory/../a.md")).toBeNull();
    expect(toRelativePath(".")).toBeNull();
    expect(dateOfName("memory/2024-02-29.md")).toBe("2024-02-29");
    expect(dateOfName("memory/2025-02-29.md")).toBeUndefined();
  });
});
