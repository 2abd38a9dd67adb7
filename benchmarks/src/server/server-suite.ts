import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { DEFAULT_CONFIG, SqliteMemory } from "@claw/memory-core";
import { createCorpus } from "../speed/corpus.js";
import { type Figure, figure, type Suite, type SuiteOutput } from "../suite.js";
import { measureExport, seedExportStore } from "./export-memory.js";
import { openParallelCapacity } from "./parallel-capacity.js";
import { load, measureRecallRounds, type Span } from "./recall-rounds.js";

const ENTRIES = 10_000;
/** Seconds of each HTTP route other than recall. */
const DURATION_S = { ci: 2, full: 5 } as const;
/** Recall: rounds, and seconds of each way of recalling within a round. */
const RECALL_ROUNDS = 5;
const ROUND_S = { ci: 1, full: 3 } as const;
/** Recalls each way makes before the rounds: five times through the queries. */
const WARMUP_REQUESTS = 5_000;
const QUERIES = 1_000;
/** Milliseconds of each spin of the parallel-capacity probe (one thread, two, one again). */
const CAPACITY_MS = 300;
/** Stores exported through GET /v1/export: a small and a 5× larger one. */
const EXPORT_ENTRIES = { ci: [4_000, 20_000], full: [20_000, 100_000] } as const;

/** Operations per second of `op`, awaited one at a time for a time or a number of operations. */
async function rate(span: Span, op: (i: number) => Promise<unknown>): Promise<number> {
  const start = performance.now();
  const end = "seconds" in span ? start + span.seconds * 1000 : Number.POSITIVE_INFINITY;
  const count = "requests" in span ? span.requests : Number.POSITIVE_INFINITY;
  let done = 0;
  while (done < count && performance.now() < end) await op(done++);
  return done / ((performance.now() - start) / 1000);
}

/** Stores per second made directly on the store; the keys it adds are forgotten after. */
async function directStoreRate(
  memory: SqliteMemory,
  sentenceAt: (i: number) => string,
  seconds: number,
): Promise<number> {
  let stored = 0;
  const perS = await rate({ seconds }, (i) => {
    stored = i + 1;
    return memory.store(`direct-${i}`, sentenceAt(i % ENTRIES), { category: "daily" });
  });
  await memory.forgetMany(Array.from({ length: stored }, (_, i) => ({ key: `direct-${i}` })));
  return perS;
}

/** The suite's store, opened keyword-only with the default settings. */
function openStore(workspaceDir: string): SqliteMemory {
  return SqliteMemory.open({
    path: join(workspaceDir, "brain.db"),
    settings: DEFAULT_CONFIG.memory,
    embeddings: null,
  });
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
    const seed = openStore(workspaceDir);
    await seed.import(
      Array.from({ length: ENTRIES }, (_, i) => ({ key: `k${i}`, content: corpus.sentenceAt(i) })),
    );
    await seed.close();
    // The speed suite's query distribution: 2–5 content words, mostly from one target entry.
    const texts = corpus.queries(QUERIES).map((q) => q.text);
    const queries = texts.map((query) => JSON.stringify({ query }));
    const seconds = DURATION_S[ctx.profile];
    const recallLoad = (url: string) => {
      let q = 0;
      return (span: Span) =>
        load({
          url: `${url}/v1/recall`,
          ...("seconds" in span ? { duration: span.seconds } : { amount: span.requests }),
          requests: [
            {
              method: "POST",
              headers: { "content-type": "application/json" },
              setupRequest: (request) => ({ ...request, body: queries[q++ % QUERIES] as string }),
            },
          ],
        });
    };
    // The same-run baseline (the same recalls and stores on the store itself, no HTTP) and the
    // same server with recall on its one thread (server.recall_workers = 0), beside the default.
    const direct = openStore(workspaceDir);
    const capacity = openParallelCapacity();
    const children: ChildProcess[] = [];
    const figures: Figure[] = [];
    const add = (id: string, value: number, unit: string, better: Figure["better"]) =>
      figures.push(figure(`server.10k.${id}`, value, unit, better));
    try {
      const single = await startChild(workspaceDir, 0);
      children.push(single.child);
      const server = await startChild(workspaceDir);
      children.push(server.child);
      ctx.log(`server: POST /v1/recall, ${RECALL_ROUNDS} rounds of direct, one thread, recall workers`);
      let asked = 0;
      const recall = await measureRecallRounds(
        {
          direct: (span) => rate(span, () => direct.recall(texts[asked++ % QUERIES] as string)),
          single: recallLoad(single.url),
          workers: recallLoad(server.url),
          capacity: () => capacity.measure(CAPACITY_MS),
        },
        { rounds: RECALL_ROUNDS, seconds: ROUND_S[ctx.profile], warmupRequests: WARMUP_REQUESTS },
      );
      for (const [i, r] of recall.rounds.entries()) {
        ctx.log(
          `server: round ${i + 1}: ${r.capacity.toFixed(2)} cores, direct ${r.directPerS.toFixed(0)}/s, one thread ${r.single.reqPerS.toFixed(0)} req/s, workers ${r.workers.reqPerS.toFixed(0)} req/s`,
        );
      }
      const storePerS = await directStoreRate(direct, corpus.sentenceAt.bind(corpus), seconds);
      ctx.log("server: GET /healthz (baseline)");
      const health = await load({ url: `${server.url}/healthz`, duration: seconds });
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
        ["recall", recall.workers],
        ["recall_single_thread", recall.single],
        ["store", store],
      ] as const) {
        add(`${name}.req_per_s`, run.reqPerS, "req/s", "higher");
        add(`${name}.p50_ms`, run.p50, "ms", "lower");
        add(`${name}.p99_ms`, run.p99, "ms", "lower");
        add(`${name}.errors`, run.errors, "requests", "lower");
      }
      add("direct.recall_per_s", recall.directPerS, "ops/s", "higher");
      add("direct.store_per_s", storePerS, "ops/s", "higher");
      add("parallel_capacity", recall.capacity, "cores", "higher");
      add("ratio.recall_http_vs_direct", recall.httpVsDirect, "×", "higher");
      add("ratio.recall_http_vs_direct_per_core", recall.httpVsDirectPerCore, "×", "higher");
      add("ratio.recall_workers_vs_single_thread", recall.workersVsSingle, "×", "higher");
      add("ratio.store_http_vs_direct", store.reqPerS / storePerS, "×", "higher");
    } finally {
      await capacity.close();
      await direct.close();
      for (const child of children) {
        child.kill("SIGTERM");
        await once(child, "exit");
      }
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
          note: `${seconds} s per route over loopback (recall: ${ROUND_S[ctx.profile]} s per way and round); recall rotates ${QUERIES} distinct queries (hot cache on, so every one misses); recall runs on the default 2 recall workers, recall_single_thread on the server's one thread (recall_workers = 0); store writes new keys. GET /healthz shows the HTTP floor. Recall is measured in ${RECALL_ROUNDS} rounds after a warm-up of ${WARMUP_REQUESTS} recalls each way: the same recalls made directly on the store (one at a time), then over HTTP on one thread, then with recall workers, the order rotating each round; recall figures and their ratios are medians over the rounds, each ratio taken within a round. parallel_capacity: the cores two spinning threads got together at the start of each round (1 thread alone = 1); the per-core ratio divides each round's HTTP ÷ direct ratio by it, since recall workers cannot use cores the machine does not give. The store ratio compares with stores made directly in the same run. Exports: GET /v1/export of ${small} and ${large} entries, each from a fresh server process; rss_growth is its peak resident memory while sending minus its idle size.`,
        },
      ],
    };
  },
};
