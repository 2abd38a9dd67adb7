import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runInProcess, tempWorkspace } from "../test-support/cli-harness.js";

function workspace(): string {
  const ws = tempWorkspace();
  writeFileSync(join(ws, "MEMORY.md"), "# Memory\n\n## Preferences\n\nThe user prefers dark roast coffee.\n");
  mkdirSync(join(ws, "memory"));
  writeFileSync(
    join(ws, "memory", "2026-11-20.md"),
    "# 2026-11-20\n\nWalked along the river.\n\n## Retain\n\n- W @Alice works at Acme\n- O(c=0.8) @Alice prefers Rust\n",
  );
  return ws;
}

describe("workspace commands", () => {
  it("sync indexes the files, then costs nothing when they did not change", async () => {
    const ws = workspace();
    const first = JSON.parse((await runInProcess(["-w", ws, "--json", "sync"])).stdout);
    expect(first).toMatchObject({ added: 2, files: 2, unchanged: 0 });
    const again = await runInProcess(["-w", ws, "sync"]);
    expect(again.stdout).toMatch(/^synced 2 files \(no changes; 2 unchanged\) in \d+ ms\n$/);
  });

  it("search returns paths with line ranges, filtered by entity and kind", async () => {
    const ws = workspace();
    await runInProcess(["-w", ws, "sync"]);
    const hits = JSON.parse((await runInProcess(["-w", ws, "--json", "search", "coffee roast"])).stdout);
    expect(hits[0]).toMatchObject({ path: "MEMORY.md", origin: "file" });
    expect(hits[0].snippet).toContain("dark roast coffee");
    const opinions = JSON.parse(
      (await runInProcess(["-w", ws, "--json", "search", "Alice", "--entity", "Alice", "--kind", "opinion"]))
        .stdout,
    );
    expect(opinions.map((h: { kind: string; confidence: number }) => [h.kind, h.confidence])).toEqual([
      ["opinion", 0.8],
    ]);
    const table = await runInProcess(["-w", ws, "search", "river"]);
    expect(table.stdout).toMatch(/memory\/2026-11-20\.md:\d+-\d+/);
  });

  it("read prints a file or some lines, and refuses paths outside the memory files", async () => {
    const ws = workspace();
    expect((await runInProcess(["-w", ws, "read", "MEMORY.md", "--from", "5", "--lines", "1"])).stdout).toBe(
      "The user prefers dark roast coffee.\n",
    );
    const outside = await runInProcess(["-w", ws, "read", "../etc/passwd.md"]);
    expect(outside.code).not.toBe(0);
    expect(outside.stderr).toMatch(/error: .*\.\./);
    const missing = await runInProcess(["-w", ws, "--json", "read", "memory/2026-01-01.md"]);
    expect(JSON.parse(missing.stdout)).toMatchObject({ path: "memory/2026-01-01.md", text: "" });
  });

  it("entity and reflect summarise the retained facts", async () => {
    const ws = workspace();
    const entity = JSON.parse((await runInProcess(["-w", ws, "--json", "entity", "Alice"])).stdout);
    expect(entity.facts.map((f: { text: string }) => f.text)).toEqual(["@Alice works at Acme"]);
    expect(entity.opinions.map((f: { text: string }) => f.text)).toEqual(["@Alice prefers Rust"]);
    const reflect = JSON.parse((await runInProcess(["-w", ws, "--json", "reflect"])).stdout);
    expect(reflect.written).toContain("bank/opinions.md");
    expect(reflect.written.some((p: string) => p.startsWith("bank/entities/Alice"))).toBe(true);
  });

  it("watch syncs at start and again after an edit, until stopped", async () => {
    const ws = workspace();
    let stop: () => void = () => {};
    const stopped = new Promise<void>((resolve) => {
      stop = resolve;
    });
    let reports = 0;
    const result = await runInProcess(["-w", ws, "--json", "watch", "--debounce", "50"], {
      stopSignal: () => stopped,
      onStdout: (text) => {
        reports += text.split("\n").filter((l) => l.startsWith("{")).length;
        if (reports === 1)
          writeFileSync(join(ws, "memory", "2026-11-21.md"), "# 2026-11-21\n\nBought a kite.\n");
        if (reports === 2) stop();
      },
    });
    expect(result.code).toBe(0);
    const lines = result.stdout
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines.map((r) => r.added)).toEqual([2, 1]);
  });
});

describe("serve", () => {
  it("starts the HTTP server on the workspace, answers, and stops on the signal", async () => {
    const ws = workspace();
    await runInProcess(["-w", ws, "store", "tz", "The user lives in Lisbon"]);
    let stop: () => void = () => {};
    const stopped = new Promise<void>((resolve) => {
      stop = resolve;
    });
    let answer: unknown;
    const result = await runInProcess(["-w", ws, "--json", "serve", "--port", "0"], {
      stopSignal: () => stopped,
      onStdout: (text) => {
        const { url } = JSON.parse(text) as { url: string };
        fetch(`${url}/v1/recall`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ query: "Lisbon" }),
        })
          .then((r) => r.json())
          .then((body) => {
            answer = body;
            stop();
          }, stop);
      },
    });
    expect(result.code).toBe(0);
    expect(JSON.stringify(answer)).toContain("The user lives in Lisbon");
  });
});
