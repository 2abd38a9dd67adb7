export { createMemoryMcpServer, type MemoryToolsOptions, type ToolScope } from "./mcp/memory-tools.js";
