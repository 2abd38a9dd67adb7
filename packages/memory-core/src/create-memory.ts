import { mkdirSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import type { EmbeddingProvider, Logger, Memory, TextGenerator } from "@claw/memory-api";
import { isMemoryError, MemoryError, silentLogger } from "@claw/memory-api";
import type { MemoryConfigInput } from "./config/config-schema.js";
import { resolveConfig } from "./config/resolve-config.js";
import { type ModuleImporter, resolveEmbeddingProvider } from "./embedding/resolve-provider.js";
import {
  type ClawPlugin,
  type ClawPluginContext,
  type ConfiguredMemory,
  type MemoryContext,
  memoryContextOf,
} from "./memory-context.js";
import { NoneMemory } from "./none-memory.js";
import { openPostgres, requirePostgresUrl } from "./open-postgres.js";
import { SqliteMemory } from "./sqlite/sqlite-memory.js";
import { storageFailure, storageFailureCode } from "./storage-failure.js";

/** Options of createMemory: the workspace, the config, the provider and the plugins. */
export interface CreateMemoryOptions {
  /** Default: ~/.claw-memory (the apps pass CLAW_MEMORY_WORKSPACE). */
  workspaceDir?: string;
  /** camelCase object, or the path of a TOML file; default `{workspace}/claw-memory.toml` if present. */
  config?: MemoryConfigInput | string;
  /** An injected provider wins over config; null = keyword only. */
  embeddings?: EmbeddingProvider | null;
  /** For the curator (lifecycle). */
  generator?: TextGenerator;
  logger?: Logger;
  /** Throw instead of falling back to NoneMemory or keyword-only. */
  strict?: boolean;
  /**
   * When the store cannot be opened: "none" (the default) runs on a NoneMemory and logs one
   * warning; "throw" rejects with the reason instead, logging nothing (the apps, which must not
   * report writes that went nowhere). `strict` implies "throw". A damaged database file (CORRUPT)
   * always rejects: falling back would drop writes while the file still holds entries to salvage.
   */
  onOpenFailure?: "none" | "throw";
  plugins?: ClawPlugin[];
  /** How provider packages are loaded; apps pass `(s) => import(s)` so resolution starts from them. */
  importModule?: ModuleImporter;
  /** Who this memory's changes are recorded as in the history (default "library"; the CLI says "cli"). */
  actor?: string;
}

/**
 * Resolves config and provider, runs plugins' beforeOpen, opens the store — SQLite, or PostgreSQL
 * through @claw/memory-postgres for `backend = "postgres"` (NoneMemory with a warning when it
 * cannot open, unless strict) — runs afterOpen, then the optional backfill.
 *
 * @example
 * ```ts
 * import { createMemory } from "@claw/memory-core";
 *
 * // Opens (or creates) ./my-agent/brain.db; ./my-agent/claw-memory.toml is read when present.
 * const memory = await createMemory({ workspaceDir: "./my-agent", config: { searchMode: "hybrid" } });
 * await memory.store("pet", "The user's cat is called Miso");
 * console.log((await memory.recall("cat name"))[0]?.content);
 * await memory.close();
 * ```
 */
export async function createMemory(options: CreateMemoryOptions = {}): Promise<ConfiguredMemory> {
  const logger = options.logger ?? silentLogger;
  const workspaceDir = resolve(options.workspaceDir ?? join(homedir(), ".claw-memory"));
  const config = await resolveConfig(options.config, { workspaceDir, logger });
  const dbPath = join(workspaceDir, "brain.db");
  const ctx: ClawPluginContext = { workspaceDir, dbPath, config, logger };
  const context: MemoryContext = { config, workspaceDir, dbPath, generator: options.generator, logger };
  const plugins = options.plugins ?? [];
  const beforeClose = async (memory: Memory) => {
    for (const plugin of plugins) await plugin.beforeClose?.(memory, ctx);
  };

  // A missing [postgres] url is a configuration error, not an outage: never hidden behind NoneMemory.
  if (config.memory.backend === "postgres") requirePostgresUrl(config);
  for (const plugin of plugins) await plugin.beforeOpen?.(ctx);

  let memory: ConfiguredMemory;
  if (config.memory.backend === "none") {
    memory = new NoneMemory(undefined, beforeClose, context) as ConfiguredMemory;
  } else {
    let embeddings = options.embeddings;
    let embeddingUnavailableReason: string | undefined;
    if (embeddings === undefined) {
      const resolved = await resolveEmbeddingProvider(config, {
        workspaceDir,
        logger,
        importModule: options.importModule,
      });
      embeddings = resolved.provider;
      embeddingUnavailableReason = resolved.reason;
      const chosen = config.memory.embeddingProvider;
      if (resolved.reason !== undefined && chosen !== "none") {
        if (options.strict && resolved.provider === null && chosen !== "auto") {
          throw new MemoryError("UNAVAILABLE", resolved.reason);
        }
        // "auto" finding nothing is keyword-only by design, not a fault: status() says so, the
        // log only at info level. Anything configured that did not load is a warning.
        if (chosen === "auto" && resolved.provider === null) logger.info(resolved.reason);
        else logger.warn(resolved.reason);
      }
    }
    const postgres = config.memory.backend === "postgres";
    try {
      makeWorkspace(workspaceDir);
      const common = {
        settings: config.memory,
        embeddings,
        embeddingUnavailableReason,
        closeProvider: options.embeddings === undefined,
        logger,
        beforeClose,
        context,
        ...(options.actor === undefined ? {} : { actor: options.actor }),
      };
      const opened = postgres
        ? await openPostgres(config, {
            ...common,
            embeddings: embeddings ?? null,
            importModule: options.importModule,
          })
        : SqliteMemory.open({ path: dbPath, ...common });
      memory = withContext(opened, context);
    } catch (error) {
      // A provider this function created is released with the store it was made for.
      if (options.embeddings === undefined) await embeddings?.close?.();
      const what = postgres ? "PostgreSQL could not be opened" : `SQLite could not open ${dbPath}`;
      // A damaged file is never hidden behind NoneMemory: writes would be dropped while the
      // entries it still holds wait to be salvaged (claw-memory doctor).
      const damaged = storageFailureCode(error) === "CORRUPT";
      if (options.strict || options.onOpenFailure === "throw" || damaged) throw storageFailure(error, what);
      const reason = `${what} (${(error as Error).message}): running without memory (NoneMemory)`;
      logger.warn(reason);
      memory = new NoneMemory(reason, beforeClose, context) as ConfiguredMemory;
    }
  }

  for (const plugin of plugins) await plugin.afterOpen?.(memory, ctx);
  if (config.memory.backfillOnStartup) {
    if (config.memory.embeddingBatchApi && memory.name === "sqlite") {
      // Vendor batch jobs take minutes to hours: the store opens now and the backfill goes on in
      // the background (close() stops it; a job left running is resumed by the next backfill).
      logger.info("backfill on startup continues in the background (embedding_batch_api)");
      memory.backfillEmbeddings().then(
        (written) => logger.info("backfill on startup finished", { written }),
        (error: unknown) => {
          if (!isMemoryError(error, "UNAVAILABLE")) {
            logger.warn("backfill on startup failed", { error: (error as Error).message });
          }
        },
      );
    } else {
      await memory.backfillEmbeddings();
    }
  }
  return memory;
}

/** A workspace that cannot be created is a STORAGE failure like any other (strict callers see a MemoryError). */
function makeWorkspace(workspaceDir: string): void {
  try {
    mkdirSync(workspaceDir, { recursive: true });
  } catch (error) {
    throw storageFailure(error, `cannot create the workspace ${workspaceDir}`);
  }
}

/** The memory an engine opened, carrying `context` (given to an engine that did not take it). */
function withContext(memory: Memory, context: MemoryContext): ConfiguredMemory {
  if (memoryContextOf(memory) !== context) Object.defineProperty(memory, "context", { value: context });
  return memory as ConfiguredMemory;
}
