// startServer(options): the composition root shared by `claw-memory-server` and `claw-memory serve`:
// config + environment → tokens, memory (with the lifecycle plugin) → buildServer → listen.
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import type { EmbeddingProvider, Logger, Memory, TextGenerator } from "@claw/memory-api";
import { MemoryError, silentLogger } from "@claw/memory-api";
import {
  applyEnvironment,
  createMemory,
  type Environment,
  type MemoryConfig,
  type ModuleImporter,
  plaintextTokenWarnings,
  resolveConfig,
  resolveTextGenerator,
} from "@claw/memory-core";
import { lifecyclePlugin } from "@claw/memory-lifecycle";
import type { FastifyInstance } from "fastify";
import { isLoopbackHost } from "./auth/loopback.js";
import { buildServer } from "./build-server.js";
import { API_KEY_VARIABLE, resolveServerTokens, withTokensHashed } from "./compose/server-tokens.js";
import { countingImporter, countProviderErrors } from "./metrics/provider-errors.js";
import { createServerMetrics } from "./metrics/server-metrics.js";
import { startRecallPool } from "./recall-pool/recall-pool.js";
import type { ServerLimits } from "./server-context.js";

/**
 * Options of startServer: the workspace, the config, the address, and what to use instead of resolving it.
 */
export interface StartServerOptions {
  /** Default CLAW_MEMORY_WORKSPACE, else ~/.claw-memory. */
  workspaceDir?: string;
  /** A TOML file; default `{workspace}/claw-memory.toml` when present. Ignored when `config` is given. */
  configPath?: string;
  /** An already validated config (the CLI passes its own); the environment is applied to it. */
  config?: MemoryConfig;
  /** Default `server.host` (127.0.0.1). */
  host?: string;
  /** Default `server.port` (7878); 0 = any free port. */
  port?: number;
  /** Default process.env: CLAW_MEMORY_WORKSPACE, provider keys, token_env variables, CLAW_MEMORY_API_KEY. */
  env?: Environment;
  logger?: Logger;
  /** An injected provider wins over the config; null = keyword only. */
  embeddings?: EmbeddingProvider | null;
  /** The curator's generator; default from `curator_provider`. */
  generator?: TextGenerator;
  limits?: Partial<ServerLimits>;
  /** How provider packages are loaded (default: from this package). */
  importModule?: ModuleImporter;
  /** Recall worker threads; default `server.recall_workers`. */
  recallWorkers?: number;
}

/** A server that is listening: its URL, the fastify app, the memory, and how to stop it. */
export interface RunningServer {
  /** e.g. http://127.0.0.1:7878 */
  url: string;
  app: FastifyInstance;
  memory: Memory;
  /** Whether any token is required (false = open loopback mode). */
  authenticated: boolean;
  /** Recall worker threads running (0 when recall runs on the server thread). */
  recallWorkers: number;
  /** Stops accepting, lets in-flight requests finish, then closes the memory (drains embeddings). */
  close(): Promise<void>;
}

/**
 * Opens the workspace's memory, builds the server and listens: what `claw-memory-server` runs.
 * Without tokens it refuses to listen on anything but loopback. `close()` stops it and closes the memory.
 *
 * @example
 * ```ts
 * import { startServer } from "@claw/memory-server";
 *
 * const server = await startServer({ workspaceDir: "./server-data", host: "127.0.0.1", port: 7878 });
 * console.log(server.url); // http://127.0.0.1:7878
 * await server.close();
 * ```
 */
export async function startServer(options: StartServerOptions = {}): Promise<RunningServer> {
  const env = options.env ?? process.env;
  const logger = options.logger ?? silentLogger;
  const workspaceDir = resolve(
    options.workspaceDir ?? env.CLAW_MEMORY_WORKSPACE ?? join(homedir(), ".claw-memory"),
  );
  // A server accepts the tokens of its config: one anyone on the machine can read is refused.
  const file =
    options.config ??
    (await resolveConfig(options.configPath, { workspaceDir, logger, inlineTokens: "refuse" }));
  const configured = applyEnvironment(file, env);
  const host = options.host ?? configured.server.host;
  const port = options.port ?? configured.server.port;
  // Every token is held as its hash from here on: the config the server keeps has no plaintext one.
  const tokens = resolveServerTokens(configured.server, env);
  const warnings = plaintextTokenWarnings(configured.server);
  const config = withTokensHashed(configured);
  // Checked before anything is opened: an open server beyond loopback is never started.
  if (tokens.length === 0 && !isLoopbackHost(host)) {
    throw MemoryError.invalidInput(
      "server.host",
      `refusing to listen on ${host} without a token: add [[server.tokens]] or set ${API_KEY_VARIABLE}, ` +
        "or listen on 127.0.0.1",
    );
  }
  for (const warning of warnings) logger.warn(warning);

  const metrics = createServerMetrics();
  const importModule = countingImporter(
    options.importModule ?? ((specifier) => import(specifier)),
    metrics.providerErrors,
  );
  const generator = options.generator ?? (await curatorGenerator(config, importModule, logger));
  const memory = await createMemory({
    workspaceDir,
    config,
    embeddings:
      options.embeddings == null
        ? options.embeddings
        : countProviderErrors(options.embeddings, metrics.providerErrors),
    ...(generator === undefined ? {} : { generator }),
    logger,
    plugins: [lifecyclePlugin()],
    importModule,
    // Serving a NoneMemory would accept writes and keep nothing: refuse to start instead.
    onOpenFailure: "throw",
  });
  const pool = await startRecallPool({
    size: options.recallWorkers ?? config.server.recallWorkers,
    workspaceDir,
    config,
    memory,
    logger,
  });
  const app = buildServer({
    memory,
    config,
    logger,
    tokens,
    warnings,
    metrics,
    generator,
    limits: options.limits,
    recall: pool.recall,
  });
  try {
    await app.listen({ host, port });
  } catch (error) {
    await app.close();
    await pool.close();
    await memory.close();
    const code = (error as NodeJS.ErrnoException).code;
    const message =
      code === "EADDRINUSE"
        ? `port ${port} on ${host} is already in use: stop what listens there, or choose another port with --port (server.port)`
        : `cannot listen on ${host}:${port}: ${(error as Error).message}`;
    throw new MemoryError("UNAVAILABLE", message, { cause: error });
  }
  const address = app.server.address();
  const boundPort = typeof address === "object" && address !== null ? address.port : port;
  const url = `http://${host.includes(":") ? `[${host}]` : host}:${boundPort}`;
  logger.info("claw-memory server listening", {
    url,
    tokens: tokens.length,
    workspace: workspaceDir,
    recallWorkers: pool.size,
  });

  let closing: Promise<void> | undefined;
  return {
    url,
    app,
    memory,
    authenticated: tokens.length > 0,
    recallWorkers: pool.size,
    close: () => {
      closing ??= (async () => {
        try {
          await app.close();
        } finally {
          await pool.close();
          await memory.close();
        }
      })();
      return closing;
    },
  };
}

async function curatorGenerator(
  config: MemoryConfig,
  importModule: ModuleImporter,
  logger: Logger,
): Promise<TextGenerator | undefined> {
  const resolved = await resolveTextGenerator(config, { importModule });
  if (resolved.generator === null) {
    logger.debug(`no curator: ${resolved.reason ?? "no text generator"}`);
    return undefined;
  }
  return resolved.generator;
}
