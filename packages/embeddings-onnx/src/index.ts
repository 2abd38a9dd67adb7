// @claw/embeddings-onnx: local embeddings with onnxruntime-node, with the model cache and its download.
export type { FetchLike } from "./file-download.js";
export {
  DEFAULT_MODEL_BASE_URL,
  type EnsureModelFilesOptions,
  ensureModelFiles,
  type ModelFiles,
} from "./model-download.js";
export {
  DEFAULT_MODEL,
  KNOWN_MODELS,
  type ModelFileSpec,
  type ModelManifest,
  type Pooling,
} from "./model-files.js";
export {
  createEmbeddingProvider,
  createOnnxEmbeddings,
  type OnnxEmbeddingSettings,
} from "./onnx-embedding-provider.js";
