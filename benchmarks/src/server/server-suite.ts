import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { DEFAULT_CONFIG, SqliteMemory } from "@claw/memory-core";
import autocannon from "autocannon";
import { createCorpus } from "../speed/corpus.js";
import { type Figure, figure, type Suite, type SuiteOutput } from "../suite.js";
import { measureExport, seedExportStore } from "./export-memory.js";

const ENTRIES = 10_000;
const DURATION_S = { ci: 3, full: 10 } as const;
const CONNECTIONS = 10;
const QUERIES = 1_000;
/** Stores exported through GET /v1/export: a small and a 5× larger one. */
const EXPORT_ENTRIES = { ci: [4_000, 20_000], full: [20_000, 100_000] } as const;

interface Load {
  reqPerS: number;
  p50: number;
  p99: number;
  errors: number;
}

/** autocannon against the loopback server: requests/s and latency percentiles, non-2xx counted as errors. */
async function load(options: autocannon.Options): Promise<Load> {
  const result = await autocannon({ connections: CONNECTIONS, ...options });
  return {
    reqPerS: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
  };
}

function duration(profile: "ci" | "full"): number {
  return DURATION_S[profile];
}

/** Recalls and stores per second on the store directly (one at a time), for the HTTP ratios. */
async function directRates(
  workspaceDir: string,
  queries: readonly string[],
  sentenceAt: (i: number) => string,
  seconds: number,
): Promise<{ recallPerS: number; storePerS: number }> {
  const memory = SqliteMemory.open({
    path: join(workspaceDir, "brain.db"),
    settings: DEFAULT_CONFIG.memory,
    embeddings: null,
  });
  try {
    const rate = async (op: (i: number) => Promise<unknown>) => {
      const end = performance.now() + Math.min(seconds, 2) * 1000;
      let done = 0;
      const start = performance.now();
      while (performance.now() < end) await op(done++);
      return done / ((performance.now() - start) / 1000);
    };
    const recallPerS = await rate((i) => memory.recall(queries[i % queries.length] as string));
    let stored = 0;
    const storePerS = await rate((i) => {
      stored = i + 1;
      return memory.store(`direct-${i}`, sentenceAt(i % ENTRIES), { category: "daily" });
    });
    // The server then starts from the same 10k entries.
    await memory.forgetMany(Array.from({ length: stored }, (_, i) => ({ key: `direct-${i}` })));
    return { recallPerS, storePerS };
  } finally {
    await memory.close();
  }
}

/** The server in a child process; resolves with its URL once it listens. */
async function startChild(
  workspaceDir: string,
  recallWorkers?: number,
): Promise<{ url: string; child: ChildProcess }> {
  const script = join(dirname(fileURLToPath(import.meta.url)), "serve-child.js");
  const args = [script, workspaceDir, ...(recallWorkers === undefined ? [] : [String(recallWorkers)])];
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "inherit"] });
  const [line] = (await once(child.stdout as NodeJS.ReadableStream, "data")) as [Buffer];
  return { url: line.toString("utf8").trim(), child };
}

/**
 * The HTTP server under load (autocannon, 10 connections, keyword-only store of 10k entries, the
 * server in its own process, with and without recall workers):
 * recall and store requests/s with p50/p99, as ratios to the same operations made directly on the
 * store in the same run; `GET /healthz` shows what HTTP alone costs.
 */
export const serverSuite: Suite = {
  name: "server",
  description: "HTTP recall and store throughput and latency at 10k entries (autocannon)",
  async run(ctx): Promise<SuiteOutput> {
    const workspaceDir = join(ctx.workDir, "server-workspace");
    mkdirSync(workspaceDir, { recursive: true });
    const corpus = createCorpus({ size: ENTRIES, dimensions: 8, seed: 9 });
    const seed = SqliteMemory.open({
      path: join(workspaceDir, "brain.db"),
      settings: DEFAULT_CONFIG.memory,
      embeddings: null,
    });
    await seed.import(
      Array.from({ length: ENTRIES }, (_, i) => ({ key: `k${i}`, content: corpus.sentenceAt(i) })),
    );
    await seed.close();
    // The speed suite's query distribution: 2–5 content words, mostly from one target entry.
    const texts = corpus.queries(QUERIES).map((q) => q.text);
    const queries = texts.map((query) => JSON.stringify({ query }));
    // The same-run baseline: the same recalls and stores on the store itself, no HTTP.
    const direct = await directRates(
      workspaceDir,
      texts,
      corpus.sentenceAt.bind(corpus),
      duration(ctx.profile),
    );

    const seconds = duration(ctx.profile);
    const recallLoad = (url: string) => {
      let q = 0;
      return load({
        url: `${url}/v1/recall`,
        duration: seconds,
        requests: [
          {
            method: "POST",
            headers: { "content-type": "application/json" },
            setupRequest: (request) => ({ ...request, body: queries[q++ % QUERIES] as string }),
          },
        ],
      });
    };
    // The same server with recall on its one thread (server.recall_workers = 0), for the ratio.
    ctx.log("server: POST /v1/recall without recall workers");
    const single = await startChild(workspaceDir, 0);
    let singleThread: Load;
    try {
      singleThread = await recallLoad(single.url);
    } finally {
      single.child.kill("SIGTERM");
      await once(single.child, "exit");
    }

    const server = await startChild(workspaceDir);
    const figures: Figure[] = [];
    const add = (id: string, value: number, unit: string, better: Figure["better"]) =>
      figures.push(figure(`server.10k.${id}`, value, unit, better));
    try {
      ctx.log("server: GET /healthz (baseline)");
      const health = await load({ url: `${server.url}/healthz`, duration: seconds });
      ctx.log("server: POST /v1/recall (default recall workers)");
      const recall = await recallLoad(server.url);
      ctx.log("server: POST /v1/memories");
      let n = 0;
      const store = await load({
        url: `${server.url}/v1/memories`,
        duration: seconds,
        requests: [
          {
            method: "POST",
            headers: { "content-type": "application/json" },
            setupRequest: (request) => ({
              ...request,
              body: JSON.stringify({
                key: `bench-${n}`,
                content: corpus.sentenceAt(n++ % ENTRIES),
                category: "daily",
              }),
            }),
          },
        ],
      });
      for (const [name, run] of [
        ["healthz", health],
        ["recall", recall],
        ["recall_single_thread", singleThread],
        ["store", store],
      ] as const) {
        add(`${name}.req_per_s`, run.reqPerS, "req/s", "higher");
        add(`${name}.p50_ms`, run.p50, "ms", "lower");
        add(`${name}.p99_ms`, run.p99, "ms", "lower");
        add(`${name}.errors`, run.errors, "requests", "lower");
      }
      add("direct.recall_per_s", direct.recallPerS, "ops/s", "higher");
      add("direct.store_per_s", direct.storePerS, "ops/s", "higher");
      add("ratio.recall_http_vs_direct", recall.reqPerS / direct.recallPerS, "×", "higher");
      add("ratio.recall_workers_vs_single_thread", recall.reqPerS / singleThread.reqPerS, "×", "higher");
      add("ratio.store_http_vs_direct", store.reqPerS / direct.storePerS, "×", "higher");
    } finally {
      server.child.kill("SIGTERM");
      await once(server.child, "exit");
    }
    ctx.log("server: GET /v1/export of a small and a large store");
    const [small, large] = EXPORT_ENTRIES[ctx.profile];
    const exports = [];
    for (const size of [small, large]) {
      const dir = join(ctx.workDir, `export-${size}`);
      await seedExportStore(dir, size);
      const run = await measureExport(dir, startChild);
      if (run.entries !== size) throw new Error(`export sent ${run.entries} lines, expected ${size}`);
      exports.push(run);
      figures.push(
        figure(`server.export.${size}.entries_per_s`, run.entries / run.seconds, "entries/s", "higher"),
      );
      figures.push(figure(`server.export.${size}.rss_growth_mib`, run.rssGrowthMiB, "MiB", "lower"));
    }
    const [smallRun, largeRun] = exports as [(typeof exports)[0], (typeof exports)[0]];
    // Constant memory: 5× the entries should not need 5× the memory (+1 MiB keeps noise out).
    figures.push(
      figure(
        "server.export.ratio.rss_growth_large_vs_small",
        (largeRun.rssGrowthMiB + 1) / (smallRun.rssGrowthMiB + 1),
        "×",
        "lower",
      ),
    );
    return {
      figures,
      charts: [],
      tables: [
        {
          title: "HTTP server at 10k entries (autocannon, 10 connections, keyword-only), and exports",
          columns: ["figure", "value", "unit"],
          rows: figures.map((f) => [f.id.replace("server.10k.", "").replace("server.", ""), f.value, f.unit]),
          note: `${seconds} s per route over loopback; recall rotates ${QUERIES} distinct queries (hot cache on, so every one misses); recall runs on the default 2 recall workers, recall_single_thread on the server's one thread (recall_workers = 0); store writes new keys. GET /healthz shows the HTTP floor; the ratios compare with the same recalls and stores made directly on the store (one at a time) in the same run. Exports: GET /v1/export of ${small} and ${large} entries, each from a fresh server process; rss_growth is its peak resident memory while sending minus its idle size.`,
        },
      ],
    };
  },
};
