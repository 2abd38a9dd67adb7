import type { GateReport } from "../gate/evaluate-gates.js";
import type { ChartSpec, Figure, Profile, TableSpec } from "../suite.js";
import { formatNumber } from "./svg-chart.js";

export interface RunRecord {
  profile: Profile;
  suites: string[];
  startedAt: string;
  durationMs: number;
  machine: { node: string; platform: string; cpus: number; memoryGb: number };
  command: string;
  /** The commit measured (`git rev-parse --short HEAD`, "+ changes" when the tree differs from it). */
  commit?: string;
  figures: Figure[];
  tables: TableSpec[];
  charts: ChartSpec[];
  gate?: GateReport;
}

/** The human-readable report: a header on how it was produced, every table, the charts, the gate. */
export function renderMarkdown(run: RunRecord): string {
  const out: string[] = [
    `# claw-memory benchmarks (${run.profile} profile)`,
    "",
    `Produced by \`${run.command}\` on ${run.startedAt.slice(0, 10)} in ${(run.durationMs / 1000).toFixed(0)} s${run.commit === undefined ? "" : ` (commit ${run.commit})`} — ` +
      `Node ${run.machine.node}, ${run.machine.platform}, ${run.machine.cpus} cores, ${run.machine.memoryGb} GiB.`,
    "",
  ];
  for (const table of run.tables) out.push(...renderTable(table), "");
  if (run.charts.length > 0) {
    out.push("## Charts", "");
    for (const chart of run.charts) out.push(`![${chart.title}](${chart.id}.svg)`, "");
  }
  if (run.gate !== undefined) {
    out.push(`## CI gate: ${run.gate.passed ? "passed" : "FAILED"}`, "");
    out.push("| figure | value | rule | result |", "|---|---|---|---|");
    for (const r of run.gate.results) {
      out.push(
        `| \`${r.figure}\` | ${r.value === undefined ? "missing" : formatNumber(r.value)} | ${r.rule} | ${r.ok ? r.message : `**${r.message}**`} |`,
      );
    }
    out.push("");
  }
  return out.join("\n");
}

export function renderTable(table: TableSpec): string[] {
  const cell = (v: string | number) => (typeof v === "number" ? formatNumber(v) : v);
  const out = [
    `### ${table.title}`,
    "",
    `| ${table.columns.join(" | ")} |`,
    `|${table.columns.map((_, i) => (i === 0 ? "---" : "---:")).join("|")}|`,
    ...table.rows.map((row) => `| ${row.map(cell).join(" | ")} |`),
  ];
  if (table.note) out.push("", table.note);
  return out;
}
