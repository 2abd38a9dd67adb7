// A damaged brain.db as the CLI user meets it: commands exit 4 (CORRUPT) with the doctor's advice
// (never "the disk is not full"), `doctor` names what is hit, `--repair` rebuilds derived damage
// and refuses table damage, `--salvage OUT` saves the readable entries into a new file.
import { existsSync, renameSync } from "node:fs";
import { join } from "node:path";
import { damagedCopy, leafPagesOf } from "@claw/memory-core/testkit";
import { describe, expect, it } from "vitest";
import { runInProcess, tempWorkspace } from "../test-support/cli-harness.js";

const ENTRIES = 2000;

/** A workspace of ENTRIES memories whose `target` (a table or index; "header") has a page overwritten. */
async function damagedWorkspace(target: string): Promise<string> {
  const ws = tempWorkspace();
  const lines = Array.from({ length: ENTRIES }, (_, i) =>
    JSON.stringify({ key: `k${i}`, content: `entry ${i} about the otter${i} colony` }),
  );
  expect((await runInProcess(["-w", ws, "import"], { stdin: lines.join("\n") })).code).toBe(0);
  const path = join(ws, "brain.db");
  expect(existsSync(`${path}-wal`)).toBe(false); // closed: the log is in the file
  const pages = target === "header" ? [1] : [leafPagesOf(path, target)[3] as number];
  renameSync(path, `${path}.original`);
  damagedCopy(`${path}.original`, path, pages, 7);
  return ws;
}

describe("doctor and a damaged database", () => {
  it("a damaged header: every command exits 4 with the doctor's advice, salvage saves every entry", async () => {
    const ws = await damagedWorkspace("header");
    for (const args of [["status"], ["recall", "otter5"], ["store", "x", "y"]]) {
      const result = await runInProcess(["-w", ws, ...args]);
      expect(result.code, args.join(" ")).toBe(4);
      expect(result.stderr).toContain("claw-memory doctor");
      expect(result.stderr).not.toContain("disk is not full");
    }
    const doctor = await runInProcess(["-w", ws, "doctor"]);
    expect(doctor.code).toBe(4);
    expect(doctor.stdout).toMatch(/^integrity\s+FAILED\s+cannot be opened: file is not a database/m);

    const out = join(ws, "saved.db");
    const salvage = await runInProcess(["-w", ws, "--json", "doctor", "--salvage", out]);
    expect(salvage.code).toBe(0);
    expect(JSON.parse(salvage.stdout).salvage).toMatchObject({ path: out, saved: ENTRIES, lost: 0 });
  });

  it("damage to entries: doctor names the table, --repair refuses, --salvage counts the loss", async () => {
    const ws = await damagedWorkspace("memories");
    const status = await runInProcess(["-w", ws, "status"]);
    expect(status.code).toBe(4);
    expect(status.stderr).toContain("doctor --salvage OUT");

    const doctor = await runInProcess(["-w", ws, "doctor"]);
    expect(doctor.code).toBe(4);
    expect(doctor.stdout).toMatch(/^integrity\s+FAILED .*\(damaged: memories\)$/m);

    const repair = await runInProcess(["-w", ws, "doctor", "--repair"]);
    expect(repair.code).toBe(4);
    expect(repair.stderr).toMatch(
      /\d+ entries and 0 versions are on damaged pages \(memories\); nothing was changed/,
    );

    const salvage = await runInProcess(["-w", ws, "--json", "doctor", "--salvage", join(ws, "saved.db")]);
    expect(salvage.code).toBe(0);
    const { saved, lost } = JSON.parse(salvage.stdout).salvage as { saved: number; lost: number };
    expect(lost).toBeGreaterThan(0);
    expect(saved + lost).toBe(ENTRIES);
  });

  it("damage to the full-text index: --repair rebuilds it and writes work again", async () => {
    const ws = await damagedWorkspace("memories_fts_data");
    const doctor = await runInProcess(["-w", ws, "doctor"]);
    expect(doctor.code).toBe(4);
    expect(doctor.stdout).toMatch(/^full-text\s+FAILED/m);

    const repair = await runInProcess(["-w", ws, "doctor", "--repair"]);
    expect(repair.code).toBe(0);
    expect(repair.stdout).toContain(`repaired: rebuilt from ${ENTRIES} entries and 0 versions`);
    expect(repair.stdout).toMatch(/^full-text\s+ok$/m);
    expect(existsSync(join(ws, "brain.db.before-repair"))).toBe(true);

    expect((await runInProcess(["-w", ws, "store", "new", "a penguin note"])).code).toBe(0);
    const recall = await runInProcess(["-w", ws, "--json", "recall", "otter1234"]);
    expect(JSON.parse(recall.stdout)[0].key).toBe("k1234");
    expect((await runInProcess(["-w", ws, "doctor"])).code).toBe(0);
  });

  it("--repair and --salvage together is a usage error", async () => {
    const ws = tempWorkspace();
    const result = await runInProcess(["-w", ws, "doctor", "--repair", "--salvage", join(ws, "x.db")]);
    expect(result.code).toBe(2);
  });
});
