// GET /v1/export of a small and a large store, each from a fresh server process: entries/s, and
// how much the process's anonymous resident memory (heap, not the mapped database file) grew while
// sending, sampled as the lines arrive. A streamed export grows by about the same whatever the
// size; one read whole grows with it.

import type { ChildProcess } from "node:child_process";
import { once } from "node:events";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { DEFAULT_CONFIG, SqliteMemory } from "@claw/memory-core";

export interface ExportRun {
  entries: number;
  seconds: number;
  /** Peak anonymous resident memory during the export minus the idle server's, in MiB. */
  rssGrowthMiB: number;
}

type StartChild = (
  workspaceDir: string,
  recallWorkers?: number,
) => Promise<{ url: string; child: ChildProcess }>;

/** A store of `entries` short entries (~120 bytes of JSON each) in `dir`. */
export async function seedExportStore(dir: string, entries: number): Promise<void> {
  mkdirSync(dir, { recursive: true });
  const memory = SqliteMemory.open({
    path: join(dir, "brain.db"),
    settings: DEFAULT_CONFIG.memory,
    embeddings: null,
  });
  try {
    for (let start = 0; start < entries; start += 10_000) {
      const count = Math.min(10_000, entries - start);
      await memory.import(
        Array.from({ length: count }, (_, i) => ({
          key: `e${start + i}`,
          content: `Exported entry number ${start + i}, with a few words of content`,
        })),
      );
    }
  } finally {
    await memory.close();
  }
}

/** Exports the store in `dir` through a fresh server (no recall workers) and reads every line. */
export async function measureExport(dir: string, startChild: StartChild): Promise<ExportRun> {
  const server = await startChild(dir, 0);
  try {
    const pid = server.child.pid as number;
    const idle = anonymousKiB(pid);
    let peak = idle;
    const started = performance.now();
    const response = await fetch(`${server.url}/v1/export`);
    if (!response.ok || response.body === null) throw new Error(`export answered ${response.status}`);
    let entries = 0;
    for await (const chunk of response.body) {
      for (const byte of chunk as Uint8Array) if (byte === 10) entries++;
      peak = Math.max(peak, anonymousKiB(pid));
    }
    const seconds = (performance.now() - started) / 1000;
    return { entries, seconds, rssGrowthMiB: (peak - idle) / 1024 };
  } finally {
    server.child.kill("SIGTERM");
    await once(server.child, "exit");
  }
}

/** Anonymous resident memory of a process (heap and stacks, not mapped files), in KiB (Linux /proc). */
function anonymousKiB(pid: number): number {
  const text = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/^RssAnon:\s+(\d+) kB/m.exec(text)?.[1] ?? Number.NaN);
}
