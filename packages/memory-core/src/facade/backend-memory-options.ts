// What the façade and every storage engine are opened with.
import type { EmbeddingProvider, Logger, Memory } from "@claw/memory-api";
import type { MemorySettings } from "../config/config-schema.js";
import type { MemoryContext } from "../memory-context.js";

/** What every backend is opened with, resolved from BackendMemoryOptions' defaults. */
export interface BackendOpenOptions {
  settings: MemorySettings;
  /** null = keyword-only. */
  provider: EmbeddingProvider | null;
  logger: Logger;
  /** The clock. */
  now: () => Date;
}

/** What every engine's open() takes besides where its store is (SqliteMemoryOptions, PostgresMemoryOptions). */
export interface BackendMemoryOptions {
  /** The `[memory]` settings; defaults for anything not given. */
  settings?: MemorySettings;
  /** null or absent = keyword-only. */
  embeddings?: EmbeddingProvider | null;
  /** Why no provider is set, for status() (e.g. a missing API key). */
  embeddingUnavailableReason?: string;
  logger?: Logger;
  /** The clock; default the system's. */
  now?: () => Date;
  /** Makes entry ids; default random UUIDs. */
  newId?: () => string;
  /** Close the provider with the store (createMemory sets it for providers it created). */
  closeProvider?: boolean;
  /** Run before the store is released (createMemory's plugin hooks). */
  beforeClose?: (memory: BackendMemory) => Promise<void>;
  /** What createMemory knew when it made the memory, exposed as `memory.context`. */
  context?: MemoryContext;
  /** Who this memory's changes are recorded as, unless a call says otherwise (default "library"). */
  actor?: string;
}

/**
 * A Memory with every optional method (embed, replaceHistory) implemented: what createBackendMemory
 * returns (replaceHistory is UNAVAILABLE where the backend has none).
 */
export type BackendMemory = Memory & Required<Pick<Memory, "embed" | "replaceHistory">>;
