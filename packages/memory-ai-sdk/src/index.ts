export {
  type ClawMemoryProviderOptions,
  type MemoryMiddlewareOptions,
  memoryMiddleware,
} from "./memory-middleware.js";
export { type MemoryToolName, type MemoryToolsOptions, memoryTools } from "./memory-tools.js";
export { MEMORY_BLOCK_END, MEMORY_BLOCK_START } from "./system-prompt-block.js";
