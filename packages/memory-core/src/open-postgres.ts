import type { EmbeddingProvider, Logger, Memory } from "@claw/memory-api";
import { MemoryError } from "@claw/memory-api";
import type { MemoryConfig } from "./config/config-schema.js";
import { importFromHere, type ModuleImporter } from "./embedding/resolve-provider.js";
import type { MemoryContext } from "./memory-context.js";

/** The package createMemory loads for `backend = "postgres"`. */
export const POSTGRES_PACKAGE = "@claw/memory-postgres";

/** What core passes to @claw/memory-postgres's `openPostgresMemory` (its PostgresMemoryOptions). */
export interface PostgresOpenOptions {
  url: string;
  schema: string;
  textSearchConfig: string;
  poolMax: number;
  preparedStatements: boolean;
  indexBuildMemoryMb: number;
  settings: MemoryConfig["memory"];
  embeddings: EmbeddingProvider | null;
  embeddingUnavailableReason?: string;
  closeProvider: boolean;
  logger: Logger;
  /** Runs before the store is released (createMemory's plugin hooks). */
  beforeClose: (memory: Memory) => Promise<void>;
  /** What createMemory knew, exposed as `memory.context`. */
  context?: MemoryContext;
  /** Who the memory's changes are recorded as (BackendMemoryOptions.actor). */
  actor?: string;
}

/** `[postgres] url`, or INVALID_INPUT naming it. */
export function requirePostgresUrl(config: MemoryConfig): string {
  const url = config.postgres.url;
  if (url === undefined) {
    throw MemoryError.invalidInput(
      "postgres.url",
      'is required when backend = "postgres" (a postgres:// connection string; the apps read CLAW_MEMORY_PG_URL)',
    );
  }
  return url;
}

interface PostgresModule {
  openPostgresMemory?: (options: PostgresOpenOptions) => Promise<Memory>;
}

/**
 * `backend = "postgres"`: loads @claw/memory-postgres at run time (core does not depend on it)
 * and opens the store `[postgres]` describes. INVALID_INPUT when `[postgres] url` is missing;
 * UNAVAILABLE, naming the package to install, when it cannot be loaded.
 */
export async function openPostgres(
  config: MemoryConfig,
  options: Omit<
    PostgresOpenOptions,
    | "url"
    | "schema"
    | "textSearchConfig"
    | "poolMax"
    | "preparedStatements"
    | "indexBuildMemoryMb"
    | "settings"
  > & {
    importModule?: ModuleImporter;
  },
): Promise<Memory> {
  const url = requirePostgresUrl(config);
  const { schema, textSearchConfig, poolMax, preparedStatements, indexBuildMemoryMb } = config.postgres;
  let mod: PostgresModule;
  try {
    mod = (await (options.importModule ?? importFromHere)(POSTGRES_PACKAGE)) as PostgresModule;
  } catch (error) {
    throw new MemoryError(
      "UNAVAILABLE",
      `backend = "postgres" needs the package ${POSTGRES_PACKAGE}: install it (npm install ${POSTGRES_PACKAGE})`,
      { cause: error },
    );
  }
  if (typeof mod.openPostgresMemory !== "function") {
    throw new MemoryError(
      "UNAVAILABLE",
      `${POSTGRES_PACKAGE} does not export openPostgresMemory: upgrade it`,
    );
  }
  const { importModule: _, ...rest } = options;
  return mod.openPostgresMemory({
    ...rest,
    url,
    schema,
    textSearchConfig,
    poolMax,
    preparedStatements,
    indexBuildMemoryMb,
    settings: config.memory,
  });
}
