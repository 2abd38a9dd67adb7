import { join } from "node:path";
import type { Memory } from "@claw/memory-api";
import { DEFAULT_CONFIG } from "../config/config-schema.js";
import type { ContractMemoryOptions } from "../testkit/contract-harness.js";
import { describeMemoryContract } from "../testkit/memory-contract.js";
import { SqliteMemory } from "./sqlite-memory.js";
import { tempDir } from "./test-support/temp-memory.js";

const paths = new WeakMap<Memory, string>();

function openAt(path: string, options: ContractMemoryOptions = {}): SqliteMemory {
  const memory = SqliteMemory.open({
    path,
    settings: { ...DEFAULT_CONFIG.memory, ...options.settings },
    embeddings: options.embeddings ?? null,
    now: options.now,
    logger: options.logger,
  });
  paths.set(memory, path);
  return memory;
}

describeMemoryContract({
  backend: "sqlite",
  vectorKind: "sqlite-vec",
  sharedStore: true,
  open: async (options) => openAt(join(tempDir(), "brain.db"), options),
  reopen: async (memory, options) => openAt(paths.get(memory) as string, options),
});
