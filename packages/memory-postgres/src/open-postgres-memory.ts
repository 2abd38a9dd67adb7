import type { Memory } from "@claw/memory-api";
import { PostgresMemory } from "./postgres-memory.js";
import type { PostgresMemoryOptions } from "./postgres-memory-options.js";

/**
 * The entry point core's createMemory loads at run time for `backend = "postgres"` (core does not
 * depend on this package): opens the store and returns it as a Memory.
 */
export function openPostgresMemory(options: PostgresMemoryOptions): Promise<Memory> {
  return PostgresMemory.open(options);
}
