/** What every suite returns, and what the report, the charts and the CI gate read. */

export type Profile = "ci" | "full";

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
}

export interface SuiteOutput {
  figures: Figure[];
  charts: ChartSpec[];
  tables: TableSpec[];
}

export interface SuiteContext {
  profile: Profile;
  /** `../shared/data` beside the repository unless --data says otherwise. */
  dataDir: string;
  /** A scratch directory for databases, removed after the run. */
  workDir: string;
  /** Progress lines (stderr). */
  log: (message: string) => void;
}

export interface Suite {
  name: string;
  description: string;
  run(ctx: SuiteContext): Promise<SuiteOutput>;
}

export function figure(id: string, value: number, unit: string, better: Figure["better"]): Figure {
  return { id, value, unit, better };
}
