/** What every suite returns, and what the report, the charts and the CI gate read. */

/**
 * `ci` (small, gated), `full` (the figures of docs/benchmarks.md) and `large` (1M entries: the speed
 * suite with every corpus distribution, the postgres suite at 100k and 1M; tens of minutes, never in
 * CI). Suites without a plan for `large` are skipped by the runner with a log line rather than run a
 * plan that was not made for it.
 */
export type Profile = "ci" | "full" | "large";

/** The profiles every suite plans for, and what a suite that declares none supports. */
export type CommonProfile = "ci" | "full";
export const COMMON_PROFILES: readonly CommonProfile[] = ["ci", "full"];

/** One named number. Ids are dotted paths, stable across runs, e.g.
 *  `quality.locomo.claw-bm25.recall@10.cat1-4` or `speed.10k.claw.keyword.p50_ms`. */
export interface Figure {
  id: string;
  value: number;
  unit: string;
  /** Which direction is an improvement (gates and the report use it). */
  better: "higher" | "lower";
}

export interface ChartSeries {
  name: string;
  points: Array<{ x: number | string; y: number }>;
}

export interface ChartSpec {
  /** File name stem of the SVG. */
  id: string;
  title: string;
  kind: "line" | "bar";
  xLabel: string;
  yLabel: string;
  /** Line charts over corpus sizes read best on a log axis. */
  logX?: boolean;
  series: ChartSeries[];
}

export interface TableSpec {
  title: string;
  columns: string[];
  rows: Array<Array<string | number>>;
  /** One line under the table: what was measured and how. */
  note?: string;
  /**
   * The `<!-- bench:NAME -->` block of docs/benchmarks.md a `full` or `large` run writes this table
   * into (with the other tables of the same NAME, in order); none: the report only.
   */
  docs?: string;
}

export interface SuiteOutput {
  figures: Figure[];
  charts: ChartSpec[];
  tables: TableSpec[];
}

/** `P`: the profiles the suite plans for (by default ci and full), so its lookups stay typed. */
export interface SuiteContext<P extends Profile = CommonProfile> {
  profile: P;
  /** `../shared/data` beside the repository unless --data says otherwise. */
  dataDir: string;
  /** A scratch directory for databases, removed after the run. */
  workDir: string;
  /** Progress lines (stderr). */
  log: (message: string) => void;
}

export interface Suite<P extends Profile = CommonProfile> {
  name: string;
  description: string;
  /** The profiles this suite has a plan for; COMMON_PROFILES when absent. */
  profiles?: readonly P[];
  run(ctx: SuiteContext<P>): Promise<SuiteOutput>;
}

/** Whether `suite` has a plan for `profile` (the runner skips it otherwise). */
export function suiteRunsIn(suite: Suite<Profile>, profile: Profile): boolean {
  return (suite.profiles ?? COMMON_PROFILES).includes(profile);
}

export function figure(id: string, value: number, unit: string, better: Figure["better"]): Figure {
  return { id, value, unit, better };
}
