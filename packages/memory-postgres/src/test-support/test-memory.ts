import type { EmbeddingProvider, Logger, Memory } from "@claw/memory-api";
import { DEFAULT_CONFIG, type MemorySettings } from "@claw/memory-core";
import { onTestFinished } from "vitest";
import { PostgresMemory } from "../postgres-memory.js";
import type { TestDatabase } from "./test-database.js";

export interface TestMemoryOptions {
  /** Another database than `database`'s, on the same target (e.g. `database.withoutPgvector()`). */
  url?: string;
  schema?: string;
  settings?: Partial<MemorySettings>;
  embeddings?: EmbeddingProvider | null;
  now?: () => Date;
  logger?: Logger;
  textSearchConfig?: string;
}

const schemas = new WeakMap<Memory, string>();

/** A PostgresMemory in its own schema (or `options.schema`), closed after the test. */
export async function openTestMemory(
  database: TestDatabase,
  options: TestMemoryOptions = {},
): Promise<PostgresMemory> {
  const schema = options.schema ?? database.newSchema();
  const memory = await PostgresMemory.open({
    url: options.url ?? database.url,
    poolMax: database.poolMax,
    schema,
    textSearchConfig: options.textSearchConfig,
    settings: { ...DEFAULT_CONFIG.memory, ...options.settings },
    embeddings: options.embeddings ?? null,
    now: options.now,
    logger: options.logger,
  });
  schemas.set(memory, schema);
  onTestFinished(() => memory.close());
  return memory;
}

/** The schema a test memory was opened in, to open another store on the same data. */
export function schemaOf(memory: Memory): string {
  const schema = schemas.get(memory);
  if (schema === undefined) throw new Error("not a test memory");
  return schema;
}
