export {
  ClawChatMessageHistory,
  type ClawChatMessageHistoryInput,
} from "./claw-chat-message-history.js";
export {
  type ClawMemoryDocumentMetadata,
  ClawMemoryRetriever,
  type ClawMemoryRetrieverInput,
} from "./claw-memory-retriever.js";
export { type MemoryToolName, type MemoryToolsOptions, memoryTools } from "./memory-tools.js";
