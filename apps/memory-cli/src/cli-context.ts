import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import type { Logger, Memory, TextGenerator } from "@claw/memory-api";
import type { MemoryConfig } from "@claw/memory-core";
import type { CliDeps } from "./cli-deps.js";
import { UsageError } from "./exit-codes.js";
import { type Colors, colorsFor } from "./output/colors.js";
import { createProgress, type Progress } from "./output/progress.js";

/** Who the CLI's changes are recorded as in the history (`claw-memory history`). */
export const CLI_ACTOR = "cli";

/** The global options every command shares. */
export interface GlobalOptions {
  workspace?: string;
  config?: string;
  json?: boolean;
  quiet?: boolean;
  verbose?: boolean;
}

/** What a command needs: its options, output helpers, and the lazily composed memory. */
export class CliContext {
  readonly colors: Colors;
  readonly logger: Logger;
  readonly workspaceDir: string;
  private config: MemoryConfig | undefined;
  private opened: Memory | undefined;
  private readonly closers: Array<() => Promise<void>> = [];

  constructor(
    readonly deps: CliDeps,
    readonly globals: GlobalOptions,
  ) {
    this.colors = colorsFor(deps.stdout.isTTY, deps.env);
    this.workspaceDir = resolve(
      deps.cwd,
      globals.workspace ?? deps.env.CLAW_MEMORY_WORKSPACE ?? join(homedir(), ".claw-memory"),
    );
    this.logger = stderrLogger(deps, globals, colorsFor(deps.stderr.isTTY, deps.env));
  }

  /**
   * A workspace named with --workspace must exist: a typo would otherwise open a new, empty store
   * and answer "nothing found". The default workspace is created on first use.
   */
  assertWorkspaceExists(): void {
    const named = this.globals.workspace;
    if (named === undefined || existsSync(this.workspaceDir)) return;
    throw new UsageError(
      `workspace ${this.workspaceDir} does not exist (nothing was created): check --workspace, or create it with \`claw-memory --workspace ${named} init\``,
    );
  }

  get json(): boolean {
    return this.globals.json === true;
  }

  /** A line of human output (nothing in --json mode). */
  print(text: string): void {
    if (!this.json) this.deps.stdout.write(`${text}\n`);
  }

  /** The command's result: JSON in --json mode, else the human rendering. */
  result(value: unknown, human: () => string): void {
    if (this.json) this.deps.stdout.write(`${JSON.stringify(value, jsonReplacer)}\n`);
    else {
      const text = human();
      if (text !== "") this.deps.stdout.write(`${text}\n`);
    }
  }

  /**
   * Progress of a long command on stderr (a bar redrawn on a terminal, else a line every 10%);
   * nothing with --quiet.
   */
  progress(label: string): Progress {
    return createProgress(this.deps.stderr, label, { quiet: this.globals.quiet });
  }

  /** The validated config with the environment applied (keys from OPENAI_API_KEY, …). */
  async loadConfig(): Promise<MemoryConfig> {
    if (this.config === undefined) {
      const { applyEnvironment, resolveConfig } = await import("@claw/memory-core");
      const path =
        this.globals.config === undefined ? undefined : resolve(this.deps.cwd, this.globals.config);
      const file = await resolveConfig(path, { workspaceDir: this.workspaceDir, logger: this.logger });
      this.config = applyEnvironment(file, this.deps.env);
    }
    return this.config;
  }

  /**
   * The memory, composed once per run: config + environment, the provider (only when
   * `embeddings` is "resolve": lookups never load provider packages or models), and the lifecycle
   * plugin the apps always install.
   */
  async memory(embeddings: "resolve" | "none" = "resolve"): Promise<Memory> {
    if (this.opened !== undefined) return this.opened;
    this.assertWorkspaceExists();
    const config = await this.loadConfig();
    const [{ createMemory }, { lifecyclePlugin }] = await Promise.all([
      import("@claw/memory-core"),
      import("@claw/memory-lifecycle"),
    ]);
    const injected = this.deps.embeddings;
    this.opened = await createMemory({
      workspaceDir: this.workspaceDir,
      config,
      embeddings: injected !== undefined ? injected : embeddings === "none" ? null : undefined,
      generator: this.deps.generator,
      logger: this.logger,
      plugins: [lifecyclePlugin()],
      importModule: this.deps.importModule,
      // A command must not report success for writes that went nowhere (a NoneMemory): the
      // reason the store did not open is the command's one error.
      onOpenFailure: "throw",
      // Every change a command makes is recorded as the CLI's in the entries' history.
      actor: CLI_ACTOR,
    });
    return this.opened;
  }

  /** The curator's generator: the injected one, else from `curator_provider`. */
  async generator(): Promise<TextGenerator> {
    if (this.deps.generator !== undefined) return this.deps.generator;
    const { resolveTextGenerator } = await import("@claw/memory-core");
    const resolved = await resolveTextGenerator(await this.loadConfig(), {
      importModule: this.deps.importModule,
    });
    if (resolved.generator === null) throw new UsageError(resolved.reason ?? "no text generator");
    return resolved.generator;
  }

  /** Work to finish before the memory closes (e.g. a workspace watcher). */
  onClose(close: () => Promise<void>): void {
    this.closers.push(close);
  }

  /** Closes the memory the command opened and anything registered to close with it, last first. */
  async close(): Promise<void> {
    for (const close of this.closers.splice(0).reverse()) await close();
    const memory = this.opened;
    this.opened = undefined;
    await memory?.close();
  }
}

/** Float32Array embeddings print as plain arrays. */
function jsonReplacer(_key: string, value: unknown): unknown {
  return value instanceof Float32Array ? Array.from(value) : value;
}

/** Logs go to stderr: warnings and errors by default, everything with --verbose, errors with --quiet. */
function stderrLogger(deps: CliDeps, globals: GlobalOptions, colors: Colors): Logger {
  const write = (label: string, message: string, data?: Record<string, unknown>) => {
    const extra = data === undefined || Object.keys(data).length === 0 ? "" : ` ${JSON.stringify(data)}`;
    deps.stderr.write(`${label} ${message}${extra}\n`);
  };
  const verbose = globals.verbose === true && globals.quiet !== true;
  return {
    debug: (m, d) => verbose && write(colors.dim("debug"), m, d),
    info: (m, d) => verbose && write(colors.cyan("info"), m, d),
    warn: (m, d) => globals.quiet !== true && write(colors.yellow("warning:"), m, d),
    error: (m, d) => write(colors.red("error:"), m, d),
  };
}
