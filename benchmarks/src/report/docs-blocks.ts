// The benchmark page (docs/benchmarks.md) holds the figures of `full` and `large` runs between
// `<!-- bench:NAME -->` and `<!-- /bench:NAME -->` markers: a run replaces each block it has tables
// for (TableSpec.docs) with those tables, under a line saying the command, the date and the commit
// measured, so the page's figures come from runs, never from hand edits. Blocks the run has no
// tables for are left as they are; a table naming a block the page lacks is reported, not added.
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import type { TableSpec } from "../suite.js";
import { type RunRecord, renderTable } from "./markdown-report.js";

export interface DocsBlocksResult {
  written: string[];
  /** Blocks the run had tables for that the page has no markers for. */
  missing: string[];
}

/** The page with every block `run` has tables for replaced (a pure function of its inputs). */
export function replaceDocsBlocks(page: string, run: RunRecord): { page: string } & DocsBlocksResult {
  const blocks = new Map<string, TableSpec[]>();
  for (const table of run.tables) {
    if (table.docs === undefined) continue;
    blocks.set(table.docs, [...(blocks.get(table.docs) ?? []), table]);
  }
  const written: string[] = [];
  const missing: string[] = [];
  let text = page;
  for (const [name, tables] of blocks) {
    const open = `<!-- bench:${name} -->`;
    const close = `<!-- /bench:${name} -->`;
    const start = text.indexOf(open);
    const end = text.indexOf(close, start);
    if (start < 0 || end < 0) {
      missing.push(name);
      continue;
    }
    const body = [headerOf(run), "", ...tables.flatMap((table) => [...renderTable(table), ""])].join("\n");
    text = `${text.slice(0, start + open.length)}\n\n${body}\n${text.slice(end)}`;
    written.push(name);
  }
  return { page: text, written, missing };
}

/** Replaces the blocks in the file at `path` (temp file + rename). */
export function writeDocsBlocks(path: string, run: RunRecord): DocsBlocksResult {
  const { page, written, missing } = replaceDocsBlocks(readFileSync(path, "utf8"), run);
  if (written.length > 0) {
    const temp = `${path}.${process.pid}.tmp`;
    writeFileSync(temp, page);
    renameSync(temp, path);
  }
  return { written, missing };
}

function headerOf(run: RunRecord): string {
  const commit = run.commit === undefined ? "" : `, commit ${run.commit}`;
  return (
    `\`${run.command}\` on ${run.startedAt.slice(0, 10)} (${(run.durationMs / 1000).toFixed(0)} s${commit}; ` +
    `Node ${run.machine.node}, ${run.machine.cpus} cores, ${run.machine.memoryGb} GiB):`
  );
}
