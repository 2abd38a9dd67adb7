import { stat } from "node:fs/promises";
import { join } from "node:path";
import type { Memory } from "@claw/memory-api";
import type { ClawPlugin, ClawPluginContext } from "@claw/memory-core";
import { runHygiene } from "./hygiene/run-hygiene.js";
import { exportSnapshot, hydrateFromSnapshot } from "./snapshot/snapshot.js";
import { SNAPSHOT_FILE } from "./snapshot/snapshot-format.js";

/** Seed 000: a database smaller than this holds no memories worth keeping over the snapshot. */
export const HYDRATE_BELOW_BYTES = 4096;

/** Options of lifecyclePlugin: each overrides the config's setting for one start-up step. */
export interface LifecyclePluginOptions {
  /** Override `auto_hydrate`. */
  hydrate?: boolean;
  /** Override `hygiene_enabled`. */
  hygiene?: boolean;
  /** Override `snapshot_enabled` (export after start-up and before close). */
  snapshot?: boolean;
}

/**
 * The seed's start-up order as createMemory plugin hooks: before the store opens, note whether
 * brain.db is missing or under 4 KB; once it is open, hydrate from MEMORY_SNAPSHOT.md first when
 * it was (so no export can overwrite the snapshot with an empty store), then run hygiene when due,
 * then export the snapshot. Before close, export once more. Each step follows the config
 * (`auto_hydrate`, `hygiene_enabled`, `snapshot_enabled`) unless an option overrides it; a failing
 * step is logged and does not stop start-up.
 *
 * @example
 * ```ts
 * import { createMemory } from "@claw/memory-core";
 * import { lifecyclePlugin } from "@claw/memory-lifecycle";
 *
 * const memory = await createMemory({ workspaceDir: "./my-agent", plugins: [lifecyclePlugin()] });
 * ```
 */
export function lifecyclePlugin(options: LifecyclePluginOptions = {}): ClawPlugin {
  const freshDatabases = new Set<string>();
  const enabled = (ctx: ClawPluginContext) => {
    const settings = ctx.config.memory;
    return {
      hydrate: options.hydrate ?? settings.autoHydrate,
      hygiene: options.hygiene ?? settings.hygieneEnabled,
      snapshot: options.snapshot ?? settings.snapshotEnabled,
    };
  };
  const step = async (ctx: ClawPluginContext, name: string, run: () => Promise<unknown>) => {
    try {
      const result = await run();
      ctx.logger.debug(`lifecycle: ${name} done`, { result });
    } catch (error) {
      ctx.logger.error(`lifecycle: ${name} failed`, { error: (error as Error).message });
    }
  };

  return {
    name: "lifecycle",
    async beforeOpen(ctx) {
      // Only a local brain.db can be "lost"; a shared PostgreSQL store is hydrated by hand if ever.
      if (ctx.config.memory.backend !== "sqlite") {
        freshDatabases.delete(ctx.dbPath);
        return;
      }
      const size = await stat(ctx.dbPath).then(
        (s) => s.size,
        () => 0,
      );
      if (size < HYDRATE_BELOW_BYTES) freshDatabases.add(ctx.dbPath);
      else freshDatabases.delete(ctx.dbPath);
    },
    async afterOpen(memory: Memory, ctx) {
      const steps = enabled(ctx);
      const fresh = freshDatabases.delete(ctx.dbPath);
      if (fresh && steps.hydrate && (await fileExists(join(ctx.workspaceDir, SNAPSHOT_FILE)))) {
        await step(ctx, "hydrate", async () => {
          const added = await hydrateFromSnapshot(memory, ctx.workspaceDir);
          ctx.logger.info(`lifecycle: hydrated ${added} memories from ${SNAPSHOT_FILE}`);
          return added;
        });
      }
      if (steps.hygiene)
        await step(ctx, "hygiene", () => runHygiene(memory, { workspaceDir: ctx.workspaceDir }));
      if (steps.snapshot) await step(ctx, "snapshot", () => exportSnapshot(memory, ctx.workspaceDir));
    },
    async beforeClose(memory: Memory, ctx) {
      if (enabled(ctx).snapshot) await step(ctx, "snapshot", () => exportSnapshot(memory, ctx.workspaceDir));
    },
  };
}

async function fileExists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}
