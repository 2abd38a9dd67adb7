import type { CliContext } from "../cli-context.js";
import { integerOption } from "./parse-options.js";

/**
 * `serve`: the HTTP API and MCP-over-HTTP server (the memory-server app) on this workspace and
 * config, until Ctrl-C; then it stops accepting, finishes requests and drains embeddings.
 */
export async function serveCommand(ctx: CliContext, opts: { host?: string; port?: string }) {
  ctx.assertWorkspaceExists();
  const { startServer } = await import("@claw/memory-server");
  const server = await startServer({
    workspaceDir: ctx.workspaceDir,
    config: await ctx.loadConfig(),
    host: opts.host,
    port: integerOption(opts.port, "--port", 0),
    env: ctx.deps.env,
    logger: ctx.logger,
    embeddings: ctx.deps.embeddings,
    generator: ctx.deps.generator,
    importModule: ctx.deps.importModule,
  });
  ctx.result({ url: server.url, authenticated: server.authenticated }, () =>
    [
      `claw-memory server listening on ${server.url}${server.authenticated ? " (bearer tokens required)" : ""}`,
      `try: curl -s ${server.url}/v1/recall -H 'content-type: application/json' -d '{"query":"hello"}'`,
    ].join("\n"),
  );
  await (ctx.deps.stopSignal?.() ?? new Promise<void>(() => {}));
  await server.close();
}
