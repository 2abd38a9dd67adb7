import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it, onTestFinished } from "vitest";

const main = fileURLToPath(new URL("../main.mjs", import.meta.url));

describe("examples/ai-sdk-agent", () => {
  it("recalls in turn 2, in another session and after a restart, the fact stored in turn 1", () => {
    const workspace = mkdtempSync(join(tmpdir(), "ai-sdk-agent-test-"));
    onTestFinished(() => rmSync(workspace, { recursive: true, force: true }));
    const { OPENAI_API_KEY: _key, ...env } = process.env;

    const output = execFileSync(process.execPath, [main, workspace], { encoding: "utf8", env });

    expect(output).toContain("model: offline (ai/test MockLanguageModelV4)");
    const [turn1, turn2] = output.split("\nturn 2 (session tuesday)\n") as [string, string];
    expect(turn1).toContain(
      'tool: memory_store {"key":"my_cat_is_named_miso","content":"my cat is named Miso"}',
    );
    expect(turn1).toContain("bot> Noted.");
    expect(turn2).toContain("## What you remember about the user\n    - my cat is named Miso\n");
    expect(turn2.trimEnd().endsWith("bot> From what I remember: my cat is named Miso")).toBe(true);
  });
});
