import { join } from "node:path";
import { createEmbeddingProvider } from "@claw/embeddings-openai";
import { createHashingEmbeddingProvider, DEFAULT_CONFIG, SqliteMemory } from "@claw/memory-core";
import { createCorpus } from "../speed/corpus.js";
import { type Figure, figure, type Suite, type SuiteOutput } from "../suite.js";
import { startFakeEmbeddingsServer } from "./fake-embeddings-server.js";

const DIMENSIONS = 256;
const SIZES = { ci: 2_000, full: 10_000 } as const;
/** Round trip the loopback fake adds per request, standing in for a provider's latency. */
const LATENCY_MS = 5;

/**
 * The embedding pipeline end to end through the OpenAI SDK against a loopback fake: deferred
 * embedding of an import, backfill of a store that had no provider, and the cache (re-storing the
 * same texts under new keys). Figures: entries per second and provider requests per entry.
 */
export const embeddingsSuite: Suite = {
  name: "embeddings",
  description: "Deferred embedding, backfill and cache through the OpenAI SDK against a loopback fake",
  async run(ctx): Promise<SuiteOutput> {
    const size = SIZES[ctx.profile];
    const label = `${size / 1000}k`;
    const server = await startFakeEmbeddingsServer(
      createHashingEmbeddingProvider({ dimensions: DIMENSIONS }),
      LATENCY_MS,
    );
    const figures: Figure[] = [];
    const add = (id: string, value: number, unit: string, better: Figure["better"]) =>
      figures.push(figure(`embeddings.${label}.${id}`, value, unit, better));
    try {
      const provider = () =>
        createEmbeddingProvider({
          provider: "custom",
          baseURL: server.baseURL,
          apiKey: "bench-key",
          model: "bench-embedding",
          dimensions: DIMENSIONS,
        });
      const corpus = createCorpus({ size, dimensions: 8, seed: 11 });
      const entries = Array.from({ length: size }, (_, i) => ({
        key: `k${i}`,
        content: corpus.sentenceAt(i),
      }));
      const settings = { ...DEFAULT_CONFIG.memory, hotCacheSize: 0 };

      ctx.log(`embeddings ${label}: deferred embedding of an import`);
      const deferredPath = join(ctx.workDir, "deferred.db");
      const deferred = SqliteMemory.open({ path: deferredPath, settings, embeddings: provider() });
      let start = performance.now();
      await deferred.import(entries);
      await deferred.flush();
      let seconds = (performance.now() - start) / 1000;
      add("deferred.entries_per_s", size / seconds, "entries/s", "higher");
      add("deferred.requests_per_entry", server.stats.requests / size, "requests", "lower");

      ctx.log(`embeddings ${label}: cache (same texts, new keys)`);
      const before = server.stats.requests;
      await deferred.import(entries.map((e) => ({ key: `copy-${e.key}`, content: e.content })));
      await deferred.flush();
      add("cache.requests_per_entry", (server.stats.requests - before) / size, "requests", "lower");
      await deferred.close();

      ctx.log(`embeddings ${label}: backfill of a keyword-only store`);
      const backfillPath = join(ctx.workDir, "backfill.db");
      const keywordOnly = SqliteMemory.open({ path: backfillPath, settings, embeddings: null });
      await keywordOnly.import(entries);
      await keywordOnly.close();
      const cacheless = { ...settings, embeddingCacheMax: 0 };
      const backfill = SqliteMemory.open({ path: backfillPath, settings: cacheless, embeddings: provider() });
      const requestsBefore = server.stats.requests;
      start = performance.now();
      const written = await backfill.backfillEmbeddings(256);
      seconds = (performance.now() - start) / 1000;
      add("backfill.entries_per_s", written / seconds, "entries/s", "higher");
      add(
        "backfill.requests_per_entry",
        (server.stats.requests - requestsBefore) / size,
        "requests",
        "lower",
      );
      add("backfill.missing_after", (await backfill.status()).missingEmbeddings, "entries", "lower");
      await backfill.close();
    } finally {
      await server.close();
    }
    return {
      figures,
      charts: [],
      tables: [
        {
          title: `Embedding pipeline at ${label} entries (OpenAI SDK → loopback fake, ${LATENCY_MS} ms per request)`,
          columns: ["figure", "value", "unit"],
          rows: figures.map((f) => [f.id.replace(`embeddings.${label}.`, ""), f.value, f.unit]),
          note: `${DIMENSIONS}-dim vectors from the hashing embedder computed by the fake; deferred = import then flush; backfill with the cache off and batches of 256.`,
        },
      ],
    };
  },
};
