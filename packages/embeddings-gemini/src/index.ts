export type { GeminiClientSettings } from "./gemini-client.js";
export {
  createEmbeddingProvider,
  createGeminiEmbeddings,
  GEMINI_DEFAULT_EMBEDDING_MODEL,
  GEMINI_MAX_BATCH_SIZE,
  GEMINI_MAX_INPUT_TOKENS,
  type GeminiEmbeddingSettings,
} from "./gemini-embedding-provider.js";
export {
  createGeminiTextGenerator,
  GEMINI_DEFAULT_TEXT_MODEL,
  type GeminiTextGeneratorSettings,
} from "./gemini-text-generator.js";
