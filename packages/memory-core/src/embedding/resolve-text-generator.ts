import type { TextGenerator } from "@claw/memory-api";
import { PROVIDER_KEY_VARIABLES } from "../config/config-environment.js";
import type { MemoryConfig } from "../config/config-schema.js";
import { importFromHere, type ModuleImporter } from "./resolve-provider.js";

/** The curator's text generator the config asked for, or null and why. */
export interface ResolvedGenerator {
  generator: TextGenerator | null;
  /** Why there is none, naming what to set or install. */
  reason?: string;
}

interface GeneratorModule {
  createOpenAITextGenerator?: (settings: Record<string, unknown>) => TextGenerator;
  createGeminiTextGenerator?: (settings: Record<string, unknown>) => TextGenerator;
}

const AUTO_ORDER = ["openai", "gemini", "openrouter"] as const;

/**
 * `curator_provider` → the TextGenerator the curator talks to: "auto" takes the first hosted
 * provider with a key (openai → gemini → openrouter); OpenAI-compatible ones come from
 * `@claw/embeddings-openai`, Gemini from `@claw/embeddings-gemini`, loaded only now.
 */
export async function resolveTextGenerator(
  config: MemoryConfig,
  options: { importModule?: ModuleImporter } = {},
): Promise<ResolvedGenerator> {
  const spec = config.memory.curatorProvider;
  if (spec === "none") return { generator: null, reason: 'curator_provider = "none"' };
  const name = spec === "auto" ? AUTO_ORDER.find((n) => config.providers[n]?.apiKey) : spec;
  if (name === undefined) {
    return {
      generator: null,
      reason:
        "no text generator for the curator: set OPENAI_API_KEY, GEMINI_API_KEY or OPENROUTER_API_KEY (or curator_provider)",
    };
  }
  const kind = name.startsWith("custom:") ? "custom" : name;
  const settings = config.providers[kind] ?? {};
  const variable = PROVIDER_KEY_VARIABLES[kind];
  if (variable !== undefined && !settings.apiKey) {
    return { generator: null, reason: `curator provider "${name}" has no API key: set ${variable}` };
  }
  const pkg = kind === "gemini" ? "@claw/embeddings-gemini" : "@claw/embeddings-openai";
  let mod: GeneratorModule;
  try {
    mod = (await (options.importModule ?? importFromHere)(pkg)) as GeneratorModule;
  } catch (error) {
    return {
      generator: null,
      reason: `the curator needs the package ${pkg}: install it (${(error as Error).message})`,
    };
  }
  const common = { apiKey: settings.apiKey, model: config.memory.curatorModel, timeoutMs: 120_000 };
  const create = kind === "gemini" ? mod.createGeminiTextGenerator : mod.createOpenAITextGenerator;
  if (typeof create !== "function")
    return { generator: null, reason: `${pkg} does not export a text generator` };
  return {
    generator:
      kind === "gemini"
        ? create({ ...common, baseURL: settings.baseUrl })
        : create({
            ...common,
            provider: kind,
            baseURL: kind === "custom" ? name.slice("custom:".length) : settings.baseUrl,
          }),
  };
}
