import type { CliContext } from "../cli-context.js";

/**
 * `mcp`: the memory tools (memory_search, memory_get, memory_store, memory_forget) as an MCP
 * server on stdin/stdout, for agents that launch it as a subprocess. Runs until stdin closes or
 * the process is told to stop; stdout carries only protocol messages (logs go to stderr).
 */
export async function mcpCommand(ctx: CliContext) {
  const memory = await ctx.memory();
  const [{ createMemoryMcpServer }, { StdioServerTransport }] = await Promise.all([
    import("@claw/memory-server"),
    import("@modelcontextprotocol/sdk/server/stdio.js"),
  ]);
  const server = createMemoryMcpServer(memory);
  const transport = new StdioServerTransport(ctx.deps.stdin, ctx.deps.stdout);
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    ctx.deps.stdin.once("end", () => resolve());
  });
  await server.connect(transport);
  ctx.logger.info("claw-memory MCP server ready on stdio");
  await Promise.race([closed, ctx.deps.stopSignal?.() ?? new Promise<never>(() => {})]);
  await server.close();
}
