import { existsSync } from "node:fs";
import { join } from "node:path";
import type { EmbeddingProvider, Logger } from "@claw/memory-api";
import { MemoryError } from "@claw/memory-api";
import { PROVIDER_KEY_VARIABLES } from "../config/config-environment.js";
import type { MemoryConfig } from "../config/config-schema.js";
import { resolveFromCwd } from "./import-from-cwd.js";

/** The model `provider = "local"` uses when `model` is not given. */
export const DEFAULT_LOCAL_MODEL = "gte-multilingual-base";

/** Loads a provider package by name; apps pass their own so resolution starts from them. */
export type ModuleImporter = (specifier: string) => Promise<unknown>;

/** The embedding provider the config asked for, or null and why. */
export interface ResolvedProvider {
  provider: EmbeddingProvider | null;
  /** Why there is no provider (or not the configured one), for status() and one warning. */
  reason?: string;
}

interface ProviderModule {
  createEmbeddingProvider?: (
    options: Record<string, unknown>,
  ) => EmbeddingProvider | Promise<EmbeddingProvider>;
}

const PACKAGE_OF: Record<string, string> = {
  openai: "@claw/embeddings-openai",
  openrouter: "@claw/embeddings-openai",
  custom: "@claw/embeddings-openai",
  gemini: "@claw/embeddings-gemini",
  voyage: "@claw/embeddings-voyage",
  local: "@claw/embeddings-onnx",
};

/**
 * `embedding_provider` → a provider: "none", "auto" (local model present → openai key → gemini key
 * → voyage key → none), a name, or "custom:<url>"; then `embedding_fallback` when the first fails.
 * API keys come from `[providers.<name>]` (the apps fill them from the environment).
 */
export async function resolveEmbeddingProvider(
  config: MemoryConfig,
  options: { workspaceDir: string; logger: Logger; importModule?: ModuleImporter },
): Promise<ResolvedProvider> {
  const settings = config.memory;
  const first = await tryResolve(settings.embeddingProvider, config, options);
  if (first.provider !== null || settings.embeddingFallback === undefined) return first;
  const fallback = await tryResolve(settings.embeddingFallback, config, options);
  if (fallback.provider !== null) {
    return {
      provider: fallback.provider,
      reason: `${first.reason}; using embedding_fallback "${settings.embeddingFallback}"`,
    };
  }
  return { provider: null, reason: `${first.reason}; fallback: ${fallback.reason}` };
}

async function tryResolve(
  spec: string,
  config: MemoryConfig,
  options: { workspaceDir: string; importModule?: ModuleImporter },
): Promise<ResolvedProvider> {
  if (spec === "none") return { provider: null, reason: 'embedding_provider = "none": keyword-only' };
  const name = spec === "auto" ? autoProvider(config, options.workspaceDir) : spec;
  if (name === null) {
    return {
      provider: null,
      reason: "no embedding provider found (no local model, no API key): keyword-only",
    };
  }
  const kind = name.startsWith("custom:") ? "custom" : name;
  const pkg = PACKAGE_OF[kind];
  if (pkg === undefined) return { provider: null, reason: `unknown embedding provider "${name}"` };
  let mod: ProviderModule;
  try {
    mod = (await (options.importModule ?? importFromHere)(pkg)) as ProviderModule;
  } catch (error) {
    return {
      provider: null,
      reason: `embedding provider "${name}" needs the package ${pkg}: install it (${(error as Error).message})`,
    };
  }
  if (typeof mod.createEmbeddingProvider !== "function") {
    return {
      provider: null,
      reason: `embedding provider "${name}": ${pkg} does not export createEmbeddingProvider`,
    };
  }
  const providerSettings = config.providers[kind === "custom" ? "custom" : kind] ?? {};
  const keyVariable = PROVIDER_KEY_VARIABLES[kind];
  if (keyVariable !== undefined && !providerSettings.apiKey) {
    return {
      provider: null,
      reason: `embedding provider "${name}" has no API key: set ${keyVariable} or providers.${kind}.api_key; keyword-only`,
    };
  }
  try {
    const provider = await mod.createEmbeddingProvider({
      provider: kind,
      apiKey: providerSettings.apiKey,
      baseURL: kind === "custom" ? name.slice("custom:".length) : providerSettings.baseUrl,
      model: config.memory.embeddingModel ?? providerSettings.model,
      dimensions: config.memory.embeddingDims,
      timeoutMs: config.memory.embeddingTimeoutMs,
      workspaceDir: options.workspaceDir,
      modelBaseUrl: config.memory.modelBaseUrl,
    });
    return { provider };
  } catch (error) {
    return {
      provider: null,
      reason: `embedding provider "${name}" failed to start: ${(error as Error).message}`,
    };
  }
}

function autoProvider(config: MemoryConfig, workspaceDir: string): string | null {
  const model = config.memory.embeddingModel ?? DEFAULT_LOCAL_MODEL;
  if (existsSync(join(workspaceDir, "models", model, "model.onnx"))) return "local";
  for (const name of ["openai", "gemini", "voyage"]) {
    if (config.providers[name]?.apiKey) return name;
  }
  return null;
}

/** import() from core, then from the working directory (where the consumer installed packages). */
export async function importFromHere(specifier: string): Promise<unknown> {
  try {
    return await import(specifier);
  } catch (error) {
    try {
      return await import(resolveFromCwd(specifier, process.cwd()));
    } catch {
      throw new MemoryError("UNAVAILABLE", `cannot load ${specifier}`, { cause: error });
    }
  }
}
