import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { figure } from "../suite.js";
import { evaluateGates, type Gate } from "./evaluate-gates.js";

const baseline = JSON.parse(readFileSync(new URL("../../baseline.json", import.meta.url), "utf8")) as {
  gates: Gate[];
};

describe("the CI gate", () => {
  it("passes figures that keep every rule", () => {
    const report = evaluateGates(
      [
        figure("q.recall", 0.7, "ratio", "higher"),
        figure("q.peer", 0.6, "ratio", "higher"),
        figure("s.ratio", 0.1, "x", "lower"),
      ],
      [
        { figure: "q.recall", baseline: 0.7, maxDrop: 0.01 },
        { figure: "q.recall", atLeast: "q.peer" },
        { figure: "s.ratio", max: 0.15 },
      ],
    );
    expect(report.passed).toBe(true);
    expect(report.results.map((r) => r.ok)).toEqual([true, true, true]);
  });

  it("goes red on a deliberate quality regression and names the figure", () => {
    const report = evaluateGates(
      [figure("q.recall", 0.68, "ratio", "higher")],
      [{ figure: "q.recall", baseline: 0.7, maxDrop: 0.01, why: "keyword recall may not drop" }],
    );
    expect(report.passed).toBe(false);
    expect(report.results[0]?.message).toBe(
      "q.recall = 0.68 breaks ≥ 0.69 (baseline 0.7 − 0.01) — keyword recall may not drop",
    );
  });

  it("goes red when a speed ratio exceeds its ceiling, or a figure falls behind a peer", () => {
    const report = evaluateGates(
      [
        figure("s.ratio", 0.2, "x", "lower"),
        figure("mine", 0.5, "ratio", "higher"),
        figure("peer", 0.6, "ratio", "higher"),
      ],
      [
        { figure: "s.ratio", max: 0.15 },
        { figure: "mine", atLeast: "peer" },
      ],
    );
    expect(report.results.map((r) => r.ok)).toEqual([false, false]);
    expect(report.results[0]?.message).toContain("s.ratio = 0.2 breaks ≤ 0.15");
    expect(report.results[1]?.message).toContain("mine = 0.5 breaks ≥ peer (0.6)");
  });

  it("fails a gate whose figure the run did not produce", () => {
    const report = evaluateGates([], [{ figure: "gone", min: 0 }]);
    expect(report.passed).toBe(false);
    expect(report.results[0]?.message).toBe("gone was not produced by this run");
  });

  it("judges an onlyWhen rule only when the machine figure it names reaches its minimum", () => {
    const gates: Gate[] = [{ figure: "gain", min: 1.15, onlyWhen: { figure: "cores", min: 1.5 } }];
    const run = (gain: number, cores?: number) =>
      evaluateGates(
        [
          figure("gain", gain, "×", "higher"),
          ...(cores === undefined ? [] : [figure("cores", cores, "cores", "higher")]),
        ],
        gates,
      ).results[0];
    expect(run(1.0, 1.7)).toMatchObject({ ok: false, message: "gain = 1 breaks ≥ 1.15" });
    expect(run(1.3, 1.7)).toMatchObject({ ok: true, message: "ok" });
    expect(run(1.0, 1.2)).toMatchObject({
      ok: true,
      notJudged: true,
      message: "not judged: cores = 1.2 < 1.5",
    });
    expect(run(1.3)).toMatchObject({ ok: false, message: "cores was not produced by this run" });
  });

  it("lets a lower-is-better figure rise only by its factor", () => {
    const gates: Gate[] = [{ figure: "lat", baseline: 2, maxFactor: 1.5 }];
    expect(evaluateGates([figure("lat", 2.9, "ms", "lower")], gates).passed).toBe(true);
    expect(evaluateGates([figure("lat", 3.1, "ms", "lower")], gates).passed).toBe(false);
  });

  it("the committed baseline goes red when its first quality figure drops by 0.05", () => {
    const quality = baseline.gates.find((g) => g.baseline !== undefined && g.maxDrop !== undefined);
    expect(quality).toBeDefined();
    const gate = quality as Gate;
    const figures = [figure(gate.figure, (gate.baseline as number) - 0.05, "ratio", "higher")];
    const report = evaluateGates(figures, [gate]);
    expect(report.passed).toBe(false);
    expect(report.results[0]?.message).toContain(gate.figure);
  });

  it("every committed gate has a rule", () => {
    for (const gate of baseline.gates) {
      const rules = [gate.min, gate.max, gate.maxDrop, gate.maxFactor, gate.atLeast].filter(
        (r) => r !== undefined,
      );
      expect(rules.length, gate.figure).toBeGreaterThan(0);
    }
  });
});
