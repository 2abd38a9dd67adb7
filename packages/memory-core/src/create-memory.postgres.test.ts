import type { Memory, MemoryPlugin } from "@claw/memory-api";
import { isMemoryError, MemoryError } from "@claw/memory-api";
import { describe, expect, it, onTestFinished } from "vitest";
import { type CreateMemoryOptions, createMemory } from "./create-memory.js";
import { createHashingEmbeddingProvider } from "./embedding/hashing-embedding-provider.js";
import { NoneMemory } from "./none-memory.js";
import type { PostgresOpenOptions } from "./open-postgres.js";
import { capturingLogger, tempDir } from "./sqlite/test-support/temp-memory.js";

const postgresConfig = {
  memory: { backend: "postgres" as const, embeddingProvider: "none" as const },
  postgres: { url: "postgres://claw:secret@db.internal:5432/claw", schema: "agents", poolMax: 3 },
};

/** A stand-in for @claw/memory-postgres: records what it was asked to open. */
function fakePostgresPackage() {
  const opened: PostgresOpenOptions[] = [];
  const imported: string[] = [];
  const importModule = async (specifier: string) => {
    imported.push(specifier);
    return {
      openPostgresMemory: async (options: PostgresOpenOptions) => {
        opened.push(options);
        return new NoneMemory(undefined, options.beforeClose);
      },
    };
  };
  return { importModule, opened, imported };
}

async function created(options: CreateMemoryOptions): Promise<Memory> {
  const memory = await createMemory(options);
  onTestFinished(() => memory.close());
  return memory;
}

describe('createMemory with backend = "postgres"', () => {
  it("loads @claw/memory-postgres at run time and opens the store [postgres] describes", async () => {
    const fake = fakePostgresPackage();
    const provider = createHashingEmbeddingProvider({ dimensions: 8 });
    const closed: string[] = [];
    const plugin: MemoryPlugin = { name: "p", beforeClose: async () => void closed.push("p") };
    const memory = await createMemory({
      workspaceDir: tempDir(),
      config: postgresConfig,
      embeddings: provider,
      importModule: fake.importModule,
      plugins: [plugin],
    });

    expect(fake.imported).toEqual(["@claw/memory-postgres"]);
    expect(fake.opened).toHaveLength(1);
    expect(fake.opened[0]).toMatchObject({
      url: "postgres://claw:secret@db.internal:5432/claw",
      schema: "agents",
      textSearchConfig: "english",
      poolMax: 3,
      preparedStatements: true,
      indexBuildMemoryMb: 1024,
      embeddings: provider,
      closeProvider: false,
    });
    expect(fake.opened[0]?.settings.backend).toBe("postgres");
    await memory.close();
    expect(closed).toEqual(["p"]);
  });

  it("a missing [postgres] url is INVALID_INPUT naming postgres.url, strict or not", async () => {
    const fake = fakePostgresPackage();
    const error = await createMemory({
      workspaceDir: tempDir(),
      config: { memory: { backend: "postgres" } },
      importModule: fake.importModule,
    }).catch((e: unknown) => e);
    expect(isMemoryError(error, "INVALID_INPUT") && error.field).toBe("postgres.url");
    expect(fake.imported).toEqual([]);
  });

  it("when the package is missing, strict callers get UNAVAILABLE naming the package to install", async () => {
    const error = await createMemory({
      workspaceDir: tempDir(),
      config: postgresConfig,
      strict: true,
      importModule: async () => {
        throw new Error("Cannot find package '@claw/memory-postgres'");
      },
    }).catch((e: unknown) => e);
    expect(isMemoryError(error, "UNAVAILABLE") && error.message).toBe(
      'backend = "postgres" needs the package @claw/memory-postgres: install it (npm install @claw/memory-postgres)',
    );
  });

  it("when the store cannot be opened, others get a NoneMemory and one warning saying why", async () => {
    const logger = capturingLogger();
    const memory = await created({
      workspaceDir: tempDir(),
      config: postgresConfig,
      logger,
      importModule: async () => ({
        openPostgresMemory: async () => {
          throw new Error("connect ECONNREFUSED 10.0.0.5:5432");
        },
      }),
    });
    expect(memory.name).toBe("none");
    expect(logger.warnings).toEqual([
      "PostgreSQL could not be opened (connect ECONNREFUSED 10.0.0.5:5432): running without memory (NoneMemory)",
    ]);
    expect((await memory.status()).warnings).toEqual(logger.warnings);
  });

  it('onOpenFailure "throw" (the apps) rejects with the store\'s own error and logs nothing', async () => {
    const logger = capturingLogger();
    const refused = new MemoryError(
      "UNAVAILABLE",
      "cannot connect to PostgreSQL at postgres://db.internal:5432/claw",
    );
    const error = await createMemory({
      workspaceDir: tempDir(),
      config: postgresConfig,
      logger,
      onOpenFailure: "throw",
      importModule: async () => ({
        openPostgresMemory: async () => {
          throw refused;
        },
      }),
    }).catch((e: unknown) => e);
    expect(error).toBe(refused);
    expect(logger.warnings).toEqual([]);
  });

  it('onOpenFailure "throw": a failure that is not a MemoryError becomes STORAGE saying what failed', async () => {
    const error = await createMemory({
      workspaceDir: tempDir(),
      config: postgresConfig,
      onOpenFailure: "throw",
      importModule: async () => ({
        openPostgresMemory: async () => {
          throw new Error("socket hang up");
        },
      }),
    }).catch((e: unknown) => e);
    expect(isMemoryError(error, "STORAGE") && error.message).toBe(
      "PostgreSQL could not be opened: socket hang up",
    );
  });
});
