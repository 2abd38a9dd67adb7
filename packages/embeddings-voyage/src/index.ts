// @claw/embeddings-voyage: Voyage embeddings for claw-memory, on the voyageai SDK.
export {
  createEmbeddingProvider,
  createVoyageEmbeddings,
  DEFAULT_VOYAGE_BASE_URL,
  DEFAULT_VOYAGE_TIMEOUT_MS,
  VOYAGE_MAX_BATCH_SIZE,
  VOYAGE_MAX_INPUT_TOKENS,
  type VoyageEmbeddingSettings,
} from "./voyage-embedding-provider.js";
export { DEFAULT_VOYAGE_MODEL, type VoyageEmbeddingModelId } from "./voyage-models.js";
