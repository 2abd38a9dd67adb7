import type { EmbeddingProvider } from "@claw/memory-api";
import { applyEnvironment, parseConfig, resolveEmbeddingProvider } from "@claw/memory-core";
import { createClawEngine } from "./claw-engine.js";
import type { RetrievalEngine } from "./engine.js";

export interface RealProviderEngine {
  /** A hybrid engine on the real provider, when one resolved. */
  engine?: RetrievalEngine;
  /** What was tried, for the report (absent when no key or provider was configured). */
  note?: string;
}

/**
 * The hybrid engine on a real embedding provider, when the environment configures one: an API key
 * (OPENAI_API_KEY, GEMINI_API_KEY, VOYAGE_API_KEY, read through core's applyEnvironment) or CLAW_MEMORY_BENCH_PROVIDER naming a provider
 * as `embedding_provider` does ("local", "custom:<url>", …). Resolution goes through core, so it
 * works for every provider package installed beside the benchmarks.
 */
export async function realProviderEngine(
  env: Record<string, string | undefined>,
  workDir: string,
  log: (message: string) => void,
): Promise<RealProviderEngine> {
  const explicit = env.CLAW_MEMORY_BENCH_PROVIDER;
  const keyed = Object.values(applyEnvironment(parseConfig({}), env).providers).some((p) => p.apiKey);
  if (explicit === undefined && !keyed) return {};
  let config: ReturnType<typeof parseConfig>;
  try {
    config = applyEnvironment(parseConfig({ embeddingProvider: explicit ?? "auto" }), env);
  } catch (error) {
    return { note: `real embedding provider not used: ${(error as Error).message}` };
  }
  const resolved = await resolveEmbeddingProvider(config, {
    workspaceDir: workDir,
    logger: { debug() {}, info() {}, warn: log, error: log },
    importModule: (specifier) => import(specifier),
  });
  if (resolved.provider === null) {
    return { note: `real embedding provider not used: ${resolved.reason ?? "none resolved"}` };
  }
  const provider: EmbeddingProvider = resolved.provider;
  const name = `claw-hybrid-${provider.id}`;
  return {
    engine: createClawEngine("hybrid", workDir, { name, embeddings: () => provider }),
    note: `${name}: ${provider.id} ${provider.model} (${provider.dimensions} dims)`,
  };
}
