// createWorkspaceIndex: the Markdown workspace as the source of truth of a Memory.
import type { Memory } from "@claw/memory-api";
import { MemoryError } from "@claw/memory-api";
import { memoryContextOf } from "@claw/memory-core";
import { readMemoryFile } from "./files/read-memory-file.js";
import { scanWorkspace } from "./files/scan-workspace.js";
import { reflect } from "./reflect/reflect.js";
import { entityAliasLoader } from "./retain/entity-aliases.js";
import { entitySummary } from "./retain/indexed-facts.js";
import { searchWorkspace } from "./search/workspace-search.js";
import { manifestPath } from "./sync/manifest.js";
import { SyncQueue } from "./sync/sync-queue.js";
import { syncWorkspace } from "./sync/sync-workspace.js";
import { startWatcher } from "./watch/workspace-watcher.js";
import { resolveOptions, type WorkspaceIndexOptions } from "./workspace-options.js";
import type { Watcher, WorkspaceIndex } from "./workspace-types.js";

/**
 * Indexes `workspaceDir`'s MEMORY.md, memory/**, bank/** (and extra paths, and optionally session
 * transcripts) into `memory`, and answers memory_search / memory_get over them. The files are the
 * truth: deleting the database and syncing again rebuilds the same entries. The memory stays the
 * caller's to close; close() here stops the watchers.
 *
 * @example
 * ```ts
 * import { createMemory } from "@claw/memory-core";
 * import { createWorkspaceIndex } from "@claw/memory-workspace";
 *
 * const memory = await createMemory({ workspaceDir: "./my-agent" });
 * const index = createWorkspaceIndex(memory, "./my-agent");
 * await index.sync(); // MEMORY.md and the Markdown under memory/ and bank/
 * for (const hit of await index.search("deploy checklist", { limit: 3 })) {
 *   console.log(`${hit.path}:${hit.startLine}`, hit.snippet);
 * }
 * await index.close();
 * await memory.close();
 * ```
 */
export function createWorkspaceIndex(
  memory: Memory,
  workspaceDir: string,
  options: WorkspaceIndexOptions = {},
): WorkspaceIndex {
  const resolved = resolveOptions(memory, workspaceDir, options);
  const { namespace, logger, now } = resolved;
  let closed = false;
  const watchers = new Set<Watcher>();
  // Read afresh by each call that compares entities, so an alias added to a page counts at once.
  const aliases = entityAliasLoader(resolved.workspaceDir, logger);

  let database: Promise<string> | null = null;
  const databaseOf = () => {
    const known = memoryContextOf(memory)?.dbPath;
    database ??=
      known !== undefined ? Promise.resolve(known) : memory.status().then((s) => s.path ?? memory.name);
    return database;
  };
  let embedding: Promise<{ provider: string; model: string } | null> | null = null;
  const embeddingOf = () => {
    embedding ??= memory
      .status()
      .then((s) => s.embedding && { provider: s.embedding.provider, model: s.embedding.model });
    return embedding;
  };

  const queue = new SyncQueue(async (full) => {
    const db = await databaseOf();
    return syncWorkspace(
      {
        memory,
        options: resolved,
        manifest: { path: manifestPath(resolved.workspaceDir, db, namespace), database: db },
      },
      full,
    );
  });
  const assertOpen = () => {
    if (closed) throw new MemoryError("UNAVAILABLE", "this workspace index is closed");
  };

  return {
    workspaceDir: resolved.workspaceDir,
    namespace,
    async sync(syncOptions = {}) {
      assertOpen();
      return queue.request(syncOptions.full === true);
    },
    watch(watchOptions) {
      assertOpen();
      const watcher = startWatcher(resolved, () => queue.request(false), watchOptions);
      watchers.add(watcher);
      return {
        get syncs() {
          return watcher.syncs;
        },
        nextSync: () => watcher.nextSync(),
        close: async () => {
          watchers.delete(watcher);
          await watcher.close();
        },
      };
    },
    async search(query, searchOptions) {
      assertOpen();
      return searchWorkspace(
        { memory, namespace, now, embedding: embeddingOf, aliases },
        query,
        searchOptions,
      );
    },
    async read(path, readOptions) {
      assertOpen();
      return readMemoryFile(resolved.workspaceDir, resolved.extraPaths, path, readOptions);
    },
    async refused() {
      assertOpen();
      return (await scanWorkspace(resolved.workspaceDir, resolved.extraPaths, resolved.logger)).refused;
    },
    async entitySummary(name) {
      assertOpen();
      return entitySummary(memory, namespace, name, aliases);
    },
    async reflect(reflectOptions) {
      assertOpen();
      return reflect(
        {
          memory,
          workspaceDir: resolved.workspaceDir,
          namespace,
          generator: resolved.generator,
          logger,
          now,
          sync: () => queue.request(false),
          aliases,
        },
        reflectOptions,
      );
    },
    async close() {
      if (closed) return;
      closed = true;
      await Promise.all([...watchers].map((w) => w.close()));
      watchers.clear();
      await queue.idle();
    },
  };
}
