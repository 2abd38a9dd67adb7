import type { Figure } from "../suite.js";

/**
 * One rule on one figure. Every rule names the figure it reads; a figure the run did not
 * produce fails the gate (a suite silently dropping a figure must not pass).
 */
export interface Gate {
  figure: string;
  /** value ≥ min */
  min?: number;
  /** value ≤ max */
  max?: number;
  /** With `baseline`: a higher-is-better figure may fall at most this much below it. */
  maxDrop?: number;
  /** With `baseline`: a lower-is-better figure may rise at most this factor above it (1.5 = +50 %). */
  maxFactor?: number;
  baseline?: number;
  /** value ≥ the value of this other figure from the same run (e.g. ahead of a peer). */
  atLeast?: string;
  /**
   * Judge the rule only when another figure of the same run is at least `min`: for a rule that
   * needs something of the machine the run measured (e.g. a second core it did not get). A run
   * below it passes the rule and says it was not judged; a run without that figure fails.
   */
  onlyWhen?: { figure: string; min: number };
  /** Why the rule exists (shown when it fails). */
  why?: string;
}

export interface GateResult {
  figure: string;
  value: number | undefined;
  rule: string;
  ok: boolean;
  /** Set when `onlyWhen` did not hold: the rule passed without being judged. */
  notJudged?: boolean;
  message: string;
}

export interface GateReport {
  passed: boolean;
  results: GateResult[];
}

export function evaluateGates(figures: readonly Figure[], gates: readonly Gate[]): GateReport {
  const values = new Map(figures.map((f) => [f.id, f.value]));
  const results = gates.map((gate) => evaluate(gate, values));
  return { passed: results.every((r) => r.ok), results };
}

function evaluate(gate: Gate, values: Map<string, number>): GateResult {
  const value = values.get(gate.figure);
  const checks: Array<{ rule: string; ok: (v: number) => boolean }> = [];
  if (gate.min !== undefined) checks.push({ rule: `≥ ${gate.min}`, ok: (v) => v >= (gate.min as number) });
  if (gate.max !== undefined) checks.push({ rule: `≤ ${gate.max}`, ok: (v) => v <= (gate.max as number) });
  if (gate.baseline !== undefined && gate.maxDrop !== undefined) {
    const floor = gate.baseline - gate.maxDrop;
    checks.push({
      rule: `≥ ${round(floor)} (baseline ${gate.baseline} − ${gate.maxDrop})`,
      ok: (v) => v >= floor - 1e-12,
    });
  }
  if (gate.baseline !== undefined && gate.maxFactor !== undefined) {
    const ceiling = gate.baseline * gate.maxFactor;
    checks.push({
      rule: `≤ ${round(ceiling)} (baseline ${gate.baseline} × ${gate.maxFactor})`,
      ok: (v) => v <= ceiling + 1e-12,
    });
  }
  if (gate.atLeast !== undefined) {
    const other = values.get(gate.atLeast);
    checks.push({
      rule: `≥ ${gate.atLeast}${other === undefined ? "" : ` (${round(other)})`}`,
      ok: (v) => other !== undefined && v >= other,
    });
  }
  const rule = checks.map((c) => c.rule).join(" and ") || "(no rule)";
  const result = (ok: boolean, message: string): GateResult => ({
    figure: gate.figure,
    value,
    rule,
    ok,
    message,
  });
  const produced = (v: number | undefined): v is number => v !== undefined && Number.isFinite(v);
  if (checks.length === 0) return result(false, `gate on ${gate.figure} has no rule`);
  if (!produced(value)) return result(false, `${gate.figure} was not produced by this run`);
  if (gate.onlyWhen !== undefined) {
    const { figure, min } = gate.onlyWhen;
    const condition = values.get(figure);
    if (!produced(condition)) return result(false, `${figure} was not produced by this run`);
    if (condition < min) {
      return { ...result(true, `not judged: ${figure} = ${round(condition)} < ${min}`), notJudged: true };
    }
  }
  const failed = checks.filter((c) => !c.ok(value));
  if (failed.length === 0) return result(true, "ok");
  const why = gate.why ? ` — ${gate.why}` : "";
  return result(
    false,
    `${gate.figure} = ${round(value)} breaks ${failed.map((c) => c.rule).join(" and ")}${why}`,
  );
}

function round(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}
