import type { Readable, Writable } from "node:stream";
import type { EmbeddingProvider, TextGenerator } from "@claw/memory-api";

/** Where the CLI writes: stdout or stderr, or a test's stream; `isTTY` and `columns` shape the output. */
export type OutStream = Writable & { isTTY?: boolean; columns?: number };

/** Everything the CLI takes from the outside world; tests pass their own. */
export interface CliDeps {
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  stdin: Readable & { isTTY?: boolean };
  stdout: OutStream;
  stderr: OutStream;
  /** The clock; tests pass a fixed one. */
  now: () => Date;
  /** A provider to use instead of resolving one from the config (tests, embedders of the CLI). */
  embeddings?: EmbeddingProvider | null;
  /** The curator's generator instead of resolving one from the config. */
  generator?: TextGenerator;
  /** How provider packages are loaded; default import() from the CLI. */
  importModule?: (specifier: string) => Promise<unknown>;
  /** Asks a yes/no question on the terminal; default reads a line from stdin. */
  confirm?: (question: string) => Promise<boolean>;
  /** Resolves when the process is asked to stop (SIGINT/SIGTERM); used by long-running commands. */
  stopSignal?: () => Promise<void>;
}

/** The real process. */
export function processDeps(): CliDeps {
  return {
    env: process.env,
    cwd: process.cwd(),
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    now: () => new Date(),
    importModule: (specifier) => import(specifier),
    stopSignal: () =>
      new Promise((resolve) => {
        process.once("SIGINT", () => resolve());
        process.once("SIGTERM", () => resolve());
      }),
  };
}
