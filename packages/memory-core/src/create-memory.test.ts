import { chmodSync, existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Memory, MemoryPlugin, PluginContext } from "@claw/memory-api";
import { isMemoryError } from "@claw/memory-api";
import { describe, expect, it, onTestFinished } from "vitest";
import { type CreateMemoryOptions, createMemory } from "./create-memory.js";
import { createHashingEmbeddingProvider } from "./embedding/hashing-embedding-provider.js";
import { capturingLogger, countingProvider, tempDir } from "./sqlite/test-support/temp-memory.js";

/** createMemory, closed after the test. */
async function created(options: CreateMemoryOptions): Promise<Memory> {
  const memory = await createMemory(options);
  onTestFinished(() => memory.close());
  return memory;
}

function writeToml(path: string, text: string): string {
  writeFileSync(path, text);
  chmodSync(path, 0o600);
  return path;
}

/** A path under a regular file: no directory, let alone a database, can be made there. */
function unusableWorkspace(): string {
  const file = join(tempDir(), "file.txt");
  writeFileSync(file, "not a directory");
  return join(file, "ws");
}

const noPackages = async (specifier: string): Promise<never> => {
  throw new Error(`Cannot find package '${specifier}'`);
};

describe("createMemory with a workspace", () => {
  it("creates brain.db in the workspace (made when missing) and stores and recalls", async () => {
    const workspaceDir = join(tempDir(), "nested", "ws");
    const memory = await created({ workspaceDir, embeddings: null });

    expect(memory.name).toBe("sqlite");
    expect(existsSync(join(workspaceDir, "brain.db"))).toBe(true);
    await memory.store("editor", "The user edits code in Helix");
    expect((await memory.recall("Helix")).map((e) => e.key)).toEqual(["editor"]);
    expect((await memory.status()).path).toBe(join(workspaceDir, "brain.db"));
  });

  it("reopening the workspace finds what was stored", async () => {
    const workspaceDir = tempDir();
    const first = await createMemory({ workspaceDir, embeddings: null });
    await first.store("k", "Persisted across opens");
    await first.close();

    const second = await created({ workspaceDir, embeddings: null });
    expect((await second.get("k"))?.content).toBe("Persisted across opens");
  });
});

describe("createMemory: where the config comes from", () => {
  async function queryEmbeddings(options: CreateMemoryOptions): Promise<number> {
    const counting = countingProvider(createHashingEmbeddingProvider({ dimensions: 32 }));
    const memory = await created({ ...options, embeddings: counting.provider });
    await memory.store("note", "Tomatoes grow against the south wall");
    await memory.flush();
    // No keyword matches, so hybrid mode cannot return early and must embed the query.
    await memory.recall("zucchini");
    return counting.calls.query;
  }

  it("the default search mode (hybrid) embeds the query", async () => {
    expect(await queryEmbeddings({ workspaceDir: tempDir() })).toBe(1);
  });

  it("a camelCase config object: searchMode bm25 never embeds the query", async () => {
    expect(await queryEmbeddings({ workspaceDir: tempDir(), config: { searchMode: "bm25" } })).toBe(0);
  });

  it("a TOML file path: search_mode = bm25 never embeds the query", async () => {
    const dir = tempDir();
    const path = writeToml(join(dir, "custom.toml"), '[memory]\nsearch_mode = "bm25"\n');
    expect(await queryEmbeddings({ workspaceDir: join(dir, "ws"), config: path })).toBe(0);
  });

  it("the workspace's claw-memory.toml is used when no config is given", async () => {
    const workspaceDir = tempDir();
    writeToml(join(workspaceDir, "claw-memory.toml"), "[memory]\nmax_content_bytes = 10\n");
    const memory = await created({ workspaceDir, embeddings: null });

    expect((await memory.store("ten", "0123456789")).content).toBe("0123456789");
    const error = await memory.store("eleven", "0123456789a").catch((e: unknown) => e);
    expect(isMemoryError(error, "INVALID_INPUT")).toBe(true);
    expect(isMemoryError(error) && error.field).toBe("content");
    expect(await memory.count()).toBe(1);
  });

  it("a given config wins over the workspace's claw-memory.toml", async () => {
    const workspaceDir = tempDir();
    writeToml(join(workspaceDir, "claw-memory.toml"), "[memory]\nmax_content_bytes = 10\n");
    const memory = await created({ workspaceDir, embeddings: null, config: { maxContentBytes: 100 } });

    expect((await memory.store("eleven", "0123456789a")).content).toBe("0123456789a");
  });
});

describe("createMemory: plugins", () => {
  function recordingPlugin(name: string, events: string[], contexts: PluginContext[]): MemoryPlugin {
    return {
      name,
      async beforeOpen(ctx) {
        events.push(`${name}.beforeOpen`);
        contexts.push(ctx);
      },
      async afterOpen(memory, ctx) {
        events.push(`${name}.afterOpen:${memory.name}`);
        contexts.push(ctx);
      },
      async beforeClose(_memory, ctx) {
        events.push(`${name}.beforeClose`);
        contexts.push(ctx);
      },
    };
  }

  it("run beforeOpen → afterOpen, then beforeClose on close, in plugin order", async () => {
    const workspaceDir = tempDir();
    const events: string[] = [];
    const contexts: PluginContext[] = [];
    const memory = await createMemory({
      workspaceDir,
      embeddings: null,
      plugins: [recordingPlugin("one", events, contexts), recordingPlugin("two", events, contexts)],
    });

    expect(events).toEqual([
      "one.beforeOpen",
      "two.beforeOpen",
      "one.afterOpen:sqlite",
      "two.afterOpen:sqlite",
    ]);
    await memory.close();
    expect(events.slice(4)).toEqual(["one.beforeClose", "two.beforeClose"]);
    for (const ctx of contexts) {
      expect(ctx.dbPath).toBe(join(workspaceDir, "brain.db"));
      expect(ctx.dbPath.endsWith("brain.db")).toBe(true);
      expect(ctx.workspaceDir).toBe(workspaceDir);
    }
  });

  it("beforeOpen runs before brain.db exists; afterOpen sees the open store", async () => {
    const workspaceDir = tempDir();
    const seen: Record<string, unknown> = {};
    await created({
      workspaceDir,
      embeddings: null,
      plugins: [
        {
          name: "probe",
          async beforeOpen(ctx) {
            seen.existedBeforeOpen = existsSync(ctx.dbPath);
          },
          async afterOpen(memory) {
            seen.healthyAfterOpen = await memory.healthCheck();
          },
        },
      ],
    });

    expect(seen).toEqual({ existedBeforeOpen: false, healthyAfterOpen: true });
  });

  it("beforeClose can still read and write the memory (the database is released after it)", async () => {
    const workspaceDir = tempDir();
    const seen: Record<string, unknown> = {};
    const memory = await createMemory({
      workspaceDir,
      embeddings: null,
      plugins: [
        {
          name: "snapshot-on-close",
          async beforeClose(m) {
            seen.count = await m.count().catch((e: unknown) => (isMemoryError(e) ? e.code : String(e)));
            seen.core = await m
              .topCoreMemories(5)
              .then((entries) => entries.map((e) => e.key))
              .catch((e: unknown) => (isMemoryError(e) ? e.code : String(e)));
          },
        },
      ],
    });
    await memory.store("fact", "A core fact to snapshot");
    await memory.close();

    expect(seen).toEqual({ count: 1, core: ["fact"] });
    expect(await memory.healthCheck()).toBe(false);
  });
});

describe("createMemory: when SQLite cannot open", () => {
  it("returns a NoneMemory, logs exactly one warning, and status explains why", async () => {
    const workspaceDir = unusableWorkspace();
    const logger = capturingLogger();
    const memory = await created({ workspaceDir, embeddings: null, logger });

    expect(memory.name).toBe("none");
    expect(logger.warnings).toHaveLength(1);
    expect(logger.warnings[0]).toContain(join(workspaceDir, "brain.db"));
    expect(logger.warnings[0]).toContain("NoneMemory");
    const status = await memory.status();
    expect(status.backend).toBe("none");
    expect(status.warnings).toEqual(logger.warnings);
    // It still validates input, keeps nothing and finds nothing.
    await memory.store("k", "content");
    expect(await memory.count()).toBe(0);
    expect(await memory.recall("content")).toEqual([]);
    expect(await memory.healthCheck()).toBe(false);
  });

  it("the fallback also happens with the default config lookup (no config given)", async () => {
    const workspaceDir = unusableWorkspace();
    const logger = capturingLogger();
    const memory = await created({ workspaceDir, embeddings: null, logger });

    expect(memory.name).toBe("none");
  });

  it("with an explicit config, the fallback is the same", async () => {
    const workspaceDir = unusableWorkspace();
    const logger = capturingLogger();
    const memory = await created({
      workspaceDir,
      logger,
      config: { embeddingProvider: "none" },
    });

    expect(memory.name).toBe("none");
    expect(logger.warnings).toHaveLength(1);
    expect((await memory.status()).warnings?.[0]).toContain("SQLite could not open");
  });

  it("plugins still run around the NoneMemory", async () => {
    const events: string[] = [];
    const memory = await createMemory({
      workspaceDir: unusableWorkspace(),
      config: { embeddingProvider: "none" },
      plugins: [
        {
          name: "probe",
          async afterOpen(m) {
            events.push(`afterOpen:${m.name}`);
          },
          async beforeClose(m) {
            events.push(`beforeClose:${m.name}`);
          },
        },
      ],
    });
    await memory.close();

    expect(events).toEqual(["afterOpen:none", "beforeClose:none"]);
  });

  it("strict: true rejects with a MemoryError instead", async () => {
    const logger = capturingLogger();
    const error = await createMemory({
      workspaceDir: unusableWorkspace(),
      config: { embeddingProvider: "none" },
      logger,
      strict: true,
    }).then(
      (memory) => memory,
      (e: unknown) => e,
    );

    expect(isMemoryError(error, "STORAGE"), String(error)).toBe(true);
    expect(logger.warnings).toEqual([]);
  });

  it('onOpenFailure "throw" (the apps) rejects with why, instead of a NoneMemory, logging nothing', async () => {
    const logger = capturingLogger();
    const workspaceDir = unusableWorkspace();
    const error = await createMemory({
      workspaceDir,
      config: { embeddingProvider: "none" },
      logger,
      onOpenFailure: "throw",
    }).catch((e: unknown) => e);

    expect(isMemoryError(error, "STORAGE")).toBe(true);
    expect((error as Error).message.startsWith(`cannot create the workspace ${workspaceDir}: `)).toBe(true);
    expect(logger.warnings).toEqual([]);
  });
});

describe("createMemory: embedding providers", () => {
  it("an injected provider is used", async () => {
    const memory = await created({
      workspaceDir: tempDir(),
      embeddings: createHashingEmbeddingProvider({ dimensions: 24 }),
    });

    const status = await memory.status();
    expect(status.embedding).toEqual({ provider: "hashing", model: "hashing-v1", dimensions: 24 });
    expect(status.vector).toBe("sqlite-vec");
    expect(status.embeddingUnavailableReason).toBeUndefined();
  });

  it('embeddingProvider "openai" without its package: keyword-only, one warning naming the package', async () => {
    const logger = capturingLogger();
    const requested: string[] = [];
    const memory = await created({
      workspaceDir: tempDir(),
      config: { embeddingProvider: "openai" },
      logger,
      importModule: (specifier) => {
        requested.push(specifier);
        return noPackages(specifier);
      },
    });

    expect(requested).toEqual(["@claw/embeddings-openai"]);
    expect(memory.name).toBe("sqlite");
    await memory.store("editor", "The user edits code in Helix");
    expect((await memory.recall("Helix")).map((e) => e.key)).toEqual(["editor"]);
    const status = await memory.status();
    expect(status.embedding).toBeNull();
    expect(status.vector).toBe("none");
    expect(status.embeddingUnavailableReason).toContain("@claw/embeddings-openai");
    expect(logger.warnings).toHaveLength(1);
    expect(logger.warnings[0]).toContain("@claw/embeddings-openai");
  });

  it('embeddingProvider "openai" without its package and strict: true rejects', async () => {
    const error = await createMemory({
      workspaceDir: tempDir(),
      config: { embeddingProvider: "openai" },
      importModule: noPackages,
      strict: true,
    }).then(
      (memory) => memory,
      (e: unknown) => e,
    );

    expect(isMemoryError(error, "UNAVAILABLE"), String(error)).toBe(true);
    expect((error as Error).message).toContain("@claw/embeddings-openai");
  });

  it('embeddingProvider "openai" with its package but no key: keyword-only, the reason names the variable', async () => {
    let created_ = 0;
    const memory = await created({
      workspaceDir: tempDir(),
      config: { embeddingProvider: "openai" },
      importModule: async () => ({
        createEmbeddingProvider: () => {
          created_++;
          return createHashingEmbeddingProvider();
        },
      }),
    });
    expect(created_).toBe(0);
    const status = await memory.status();
    expect(status.embedding).toBeNull();
    expect(status.embeddingUnavailableReason).toContain("OPENAI_API_KEY");
  });

  it('embeddingProvider "none": keyword-only and no warning', async () => {
    const logger = capturingLogger();
    const memory = await created({
      workspaceDir: tempDir(),
      config: { embeddingProvider: "none" },
      logger,
      importModule: noPackages,
    });

    await memory.store("editor", "The user edits code in Helix");
    expect((await memory.recall("Helix")).map((e) => e.key)).toEqual(["editor"]);
    expect((await memory.status()).embedding).toBeNull();
    expect(logger.warnings).toEqual([]);
  });
});

describe('createMemory: backend = "none"', () => {
  it("returns a NoneMemory and creates no database", async () => {
    const workspaceDir = tempDir();
    const logger = capturingLogger();
    const memory = await created({ workspaceDir, config: { backend: "none" }, logger });

    expect(memory.name).toBe("none");
    expect(existsSync(join(workspaceDir, "brain.db"))).toBe(false);
    expect((await memory.status()).warnings?.[0]).toContain('backend = "none"');
    expect(logger.warnings).toEqual([]);
  });
});
