import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";

const demo = fileURLToPath(new URL("../demo.mjs", import.meta.url));
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("the README's quickstart demo", () => {
  it("stores, recalls by keyword and by hybrid search, in a real brain.db", () => {
    const workspace = mkdtempSync(join(tmpdir(), "claw-demo-test-"));
    dirs.push(workspace);
    const output = execFileSync(process.execPath, [demo, workspace], { encoding: "utf8" });
    expect(output).toContain('recall "what language for the backend?" → user_language');
    expect(output).toContain('recall "deploy friday" → deploy_rule');
    expect(output).toContain('recall "苹果" → fruit');
    expect(output).toContain("keyword-only: 4 entries");
    expect(output).toContain('hybrid "dog at the beach" → user_pet');
    expect(output).toContain("hybrid: vectors via sqlite-vec, 0 missing");
    expect(existsSync(join(workspace, "brain.db"))).toBe(true);
  });
});
