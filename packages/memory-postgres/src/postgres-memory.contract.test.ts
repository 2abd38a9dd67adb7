import { describeMemoryContract } from "@claw/memory-core/testkit";
import { forEachTestDatabase } from "./test-support/test-database.js";
import { openTestMemory, schemaOf } from "./test-support/test-memory.js";

forEachTestDatabase((database) => {
  describeMemoryContract({
    backend: "postgres",
    get vectorKind() {
      return database().pgvector ? "pgvector" : "js";
    },
    sharedStore: true,
    open: (options) => openTestMemory(database(), options),
    reopen: (memory, options) => openTestMemory(database(), { ...options, schema: schemaOf(memory) }),
  });
});
