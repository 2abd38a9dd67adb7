// `claw-memory-server [--workspace DIR] [--config FILE] [--host H] [--port P] [--version]`: starts the server,
// prints where it listens, and shuts down gracefully on SIGTERM or SIGINT.
import { parseArgs } from "node:util";
import type { Logger } from "@claw/memory-api";
import { isMemoryError } from "@claw/memory-api";
import type { Environment } from "@claw/memory-core";
import { SERVER_VERSION } from "./server-version.js";
import { type StartServerOptions, startServer } from "./start-server.js";

export interface MainIo {
  env: Environment;
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  /** Where SIGTERM and SIGINT arrive (process). */
  signals: { once(signal: "SIGTERM" | "SIGINT", listener: () => void): unknown };
  /** Called on a second signal while shutting down. */
  forceExit(code: number): void;
}

/** The `claw-memory-server --help` text. */
export const USAGE = `Usage: claw-memory-server [--workspace DIR] [--config FILE] [--host H] [--port P] [--verbose]

  --workspace DIR  where brain.db lives (default $CLAW_MEMORY_WORKSPACE, else ~/.claw-memory)
  --config FILE    a claw-memory.toml (default {workspace}/claw-memory.toml when present)
  --host H         default [server] host (127.0.0.1); beyond loopback a token is required
  --port P         default [server] port (7878); 0 = any free port
  --verbose        log every request to stderr
  -V, --version    print the version
`;

/** Runs until a signal; returns the exit code (0 after a clean shutdown, 1 on failure, 2 on usage). */
export async function main(argv: readonly string[], io: MainIo = processIo()): Promise<number> {
  let args: ReturnType<typeof parse>;
  try {
    args = parse(argv);
  } catch (error) {
    io.stderr.write(`error: ${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (args.help) {
    io.stdout.write(USAGE);
    return 0;
  }
  if (args.version) {
    io.stdout.write(`${SERVER_VERSION}\n`);
    return 0;
  }
  const port = args.port === undefined ? undefined : Number(args.port);
  if (port !== undefined && !(Number.isInteger(port) && port >= 0 && port <= 65_535)) {
    io.stderr.write(`error: --port: expected a whole number from 0 to 65535, got ${args.port}\n`);
    return 2;
  }
  const logger = stderrLogger(io, args.verbose === true);
  const options: StartServerOptions = { env: io.env, logger, workspaceDir: args.workspace };
  if (args.config !== undefined) options.configPath = args.config;
  if (args.host !== undefined) options.host = args.host;
  if (port !== undefined) options.port = port;

  let running: Awaited<ReturnType<typeof startServer>>;
  try {
    running = await startServer(options);
  } catch (error) {
    io.stderr.write(`error: ${isMemoryError(error) ? error.message : String(error)}\n`);
    if (isMemoryError(error, "CORRUPT")) {
      // The CLI's exit status and advice for a damaged database.
      io.stderr.write(
        "the database file is damaged: run `claw-memory doctor` (then --repair or --salvage OUT)\n",
      );
      return 4;
    }
    return isMemoryError(error, "INVALID_INPUT") ? 2 : 1;
  }
  const auth = running.authenticated ? ` -H "Authorization: Bearer $CLAW_MEMORY_API_KEY"` : "";
  io.stdout.write(
    `claw-memory server listening on ${running.url}\n` +
      `  API docs: ${running.url}/docs\n` +
      `  try: curl${auth} -H 'content-type: application/json' -d '{"query":"what do you know?"}' ${running.url}/v1/recall\n`,
  );

  const signal = await new Promise<string>((resolve) => {
    io.signals.once("SIGTERM", () => resolve("SIGTERM"));
    io.signals.once("SIGINT", () => resolve("SIGINT"));
  });
  logger.info(`${signal}: finishing in-flight requests and draining embeddings`);
  const again = () => {
    io.stderr.write("second signal: exiting without waiting\n");
    io.forceExit(1);
  };
  io.signals.once("SIGTERM", again);
  io.signals.once("SIGINT", again);
  try {
    await running.close();
  } catch (error) {
    io.stderr.write(`error while shutting down: ${(error as Error).message}\n`);
    return 1;
  }
  io.stderr.write("claw-memory server stopped\n");
  return 0;
}

function parse(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    options: {
      workspace: { type: "string" },
      config: { type: "string" },
      host: { type: "string" },
      port: { type: "string" },
      verbose: { type: "boolean" },
      help: { type: "boolean", short: "h" },
      version: { type: "boolean", short: "V" },
    },
    allowPositionals: false,
    strict: true,
  }).values;
}

function processIo(): MainIo {
  return {
    env: process.env,
    stdout: process.stdout,
    stderr: process.stderr,
    signals: process,
    forceExit: (code) => process.exit(code),
  };
}

/** Warnings and errors always; info and debug (every request) with --verbose. */
function stderrLogger(io: MainIo, verbose: boolean): Logger {
  const write = (level: string, message: string, data?: Record<string, unknown>) => {
    const extra = data === undefined || Object.keys(data).length === 0 ? "" : ` ${JSON.stringify(data)}`;
    io.stderr.write(`${level} ${message}${extra}\n`);
  };
  return {
    debug: (m, d) => verbose && write("debug", m, d),
    info: (m, d) => verbose && write("info", m, d),
    warn: (m, d) => write("warning:", m, d),
    error: (m, d) => write("error:", m, d),
  };
}
