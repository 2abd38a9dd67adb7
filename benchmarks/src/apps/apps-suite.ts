import { spawnSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { DEFAULT_CONFIG, SqliteMemory } from "@claw/memory-core";
import { startServer } from "@claw/memory-server";
import { createCorpus } from "../speed/corpus.js";
import { percentile } from "../stats.js";
import { type Figure, figure, type Suite, type SuiteOutput } from "../suite.js";

const SIZES = { ci: 2_000, full: 10_000 } as const;
const COLD_RUNS = { ci: 5, full: 9 } as const;
const HTTP_RUNS = { ci: 100, full: 400 } as const;

const cliBin = join(
  dirname(createRequire(import.meta.url).resolve("@claw/memory-cli/package.json")),
  "dist",
  "bin.js",
);

/** Median wall time of a fresh `node <args>` process, in ms. */
function coldStart(args: readonly string[], runs: number, env: NodeJS.ProcessEnv): number {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    const result = spawnSync(process.execPath, args, { env, stdio: ["ignore", "ignore", "pipe"] });
    times.push(performance.now() - start);
    if (result.status !== 0) throw new Error(`node ${args.join(" ")} failed: ${result.stderr.toString()}`);
  }
  return percentile(times, 50);
}

/**
 * The apps as users meet them: cold starts of the `claw-memory` binary (help, get, recall over the
 * corpus), each also as a ratio to a bare `node -e ""` measured in the same run; and the HTTP
 * server's latency for a get and a recall over a real socket.
 */
export const appsSuite: Suite = {
  name: "apps",
  description: "CLI cold start and HTTP server latency (keyword-only workspace)",
  async run(ctx): Promise<SuiteOutput> {
    const size = SIZES[ctx.profile];
    const label = `${size / 1000}k`;
    const workspaceDir = join(ctx.workDir, "apps-workspace");
    mkdirSync(workspaceDir, { recursive: true });
    const corpus = createCorpus({ size, dimensions: 8, seed: 5 });
    const store = SqliteMemory.open({
      path: join(workspaceDir, "brain.db"),
      settings: DEFAULT_CONFIG.memory,
      embeddings: null,
    });
    await store.import(
      Array.from({ length: size }, (_, i) => ({ key: `k${i}`, content: corpus.sentenceAt(i) })),
    );
    await store.close();
    const query = corpus
      .sentenceAt(Math.floor(size / 2))
      .split(" ")
      .slice(0, 4)
      .join(" ");

    const figures: Figure[] = [];
    const add = (id: string, value: number, unit: string, better: Figure["better"]) =>
      figures.push(figure(`apps.${id}`, value, unit, better));
    const env = {
      PATH: process.env.PATH,
      HOME: workspaceDir,
      NO_COLOR: "1",
      CLAW_MEMORY_WORKSPACE: workspaceDir,
    };
    const runs = COLD_RUNS[ctx.profile];

    ctx.log("apps: CLI cold starts");
    const node = coldStart(["-e", ""], runs, env);
    const help = coldStart([cliBin, "--help"], runs, env);
    const get = coldStart([cliBin, "-q", "get", "k5"], runs, env);
    const recall = coldStart([cliBin, "-q", "recall", query], runs, env);
    add("cli.node_baseline_ms", node, "ms", "lower");
    add("cli.help_ms", help, "ms", "lower");
    add(`cli.${label}.get_ms`, get, "ms", "lower");
    add(`cli.${label}.recall_ms`, recall, "ms", "lower");
    add("cli.ratio.help_vs_node", help / node, "×", "lower");
    add(`cli.${label}.ratio.recall_vs_node`, recall / node, "×", "lower");

    ctx.log("apps: HTTP server latency");
    // No rate limit: the benchmark measures latency, not the limiter.
    const server = await startServer({
      workspaceDir,
      port: 0,
      env: {},
      embeddings: null,
      limits: { rateLimit: false },
    });
    try {
      const time = async (request: () => Promise<Response>) => {
        const times: number[] = [];
        for (let i = 0; i < HTTP_RUNS[ctx.profile]; i++) {
          const start = performance.now();
          const response = await request();
          await response.arrayBuffer();
          times.push(performance.now() - start);
          if (!response.ok) throw new Error(`HTTP ${response.status}`);
        }
        return percentile(times, 50);
      };
      add(
        `server.${label}.get_p50_ms`,
        await time(() => fetch(`${server.url}/v1/memories/k5`)),
        "ms",
        "lower",
      );
      add(
        `server.${label}.recall_p50_ms`,
        await time(() =>
          fetch(`${server.url}/v1/recall`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ query }),
          }),
        ),
        "ms",
        "lower",
      );
    } finally {
      await server.close();
    }

    return {
      figures,
      charts: [],
      tables: [
        {
          title: `Apps at ${label} entries (keyword-only)`,
          columns: ["figure", "value", "unit"],
          rows: figures.map((f) => [f.id.replace("apps.", ""), f.value, f.unit]),
          note: `CLI: median of ${runs} fresh processes each, against \`node -e ""\` in the same run. Server: p50 of ${HTTP_RUNS[ctx.profile]} sequential requests over a loopback socket.`,
        },
      ],
    };
  },
};
