import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runBenchmarks } from "./run-benchmarks.js";
import { figure, type Profile, type Suite, suiteRunsIn } from "./suite.js";

const dir = mkdtempSync(join(tmpdir(), "run-benchmarks-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function fakeSuite(name: string, profiles?: readonly Profile[]): Suite<Profile> & { seen: Profile[] } {
  const seen: Profile[] = [];
  return {
    name,
    description: name,
    profiles,
    seen,
    async run(ctx) {
      seen.push(ctx.profile);
      return { figures: [figure(`${name}.x`, 1, "n", "higher")], charts: [], tables: [] };
    },
  };
}

describe("profiles a suite has no plan for", () => {
  it("ci and full are every suite's; large only where declared", () => {
    const plain = fakeSuite("plain");
    const big = fakeSuite("big", ["ci", "full", "large"]);
    expect(["ci", "full", "large"].map((p) => suiteRunsIn(plain, p as Profile))).toEqual([true, true, false]);
    expect(suiteRunsIn(big, "large")).toBe(true);
  });

  it("skips such a suite with a log line, runs the others and gates only their figures", async () => {
    const plain = fakeSuite("plain");
    const big = fakeSuite("big", ["ci", "full", "large"]);
    const lines: string[] = [];
    const run = await runBenchmarks({
      suites: [plain, big],
      profile: "large",
      dataDir: dir,
      outDir: join(dir, "out"),
      gates: [
        { figure: "plain.x", min: 1, why: "skipped suite" },
        { figure: "big.x", min: 1, why: "ran" },
      ],
      command: "test",
      log: (m) => lines.push(m),
    });
    expect(plain.seen).toEqual([]);
    expect(big.seen).toEqual(["large"]);
    expect(lines).toContain("suite plain: no plan for the large profile, skipped");
    expect(run.suites).toEqual(["big"]);
    expect(run.gate?.results.map((r) => r.figure)).toEqual(["big.x"]);
    expect(run.gate?.passed).toBe(true);
    expect(JSON.parse(readFileSync(join(dir, "out", "results.json"), "utf8")).profile).toBe("large");
  });
});
