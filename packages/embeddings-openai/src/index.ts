export type { OpenAIApiKey, OpenAIConnectionSettings, OpenAIProviderKind } from "./openai-connection.js";
export type { OpenAIEmbeddingModelId } from "./openai-embedding-models.js";
export {
  createEmbeddingProvider,
  createOpenAIEmbeddings,
  type OpenAIEmbeddingSettings,
} from "./openai-embedding-provider.js";
export { createOpenAITextGenerator, type OpenAITextGeneratorSettings } from "./openai-text-generator.js";
