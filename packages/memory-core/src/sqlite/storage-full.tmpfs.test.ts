// A real full file system: a 3 MiB tmpfs (root with CAP_SYS_ADMIN, as here and on CI), where SQLite
// meets ENOSPC. Where mounting is refused, the same story runs on a `max_database_mb` cap instead.
import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { DEFAULT_CONFIG, type MemorySettings } from "../config/config-schema.js";
import { SqliteMemory } from "./sqlite-memory.js";
import {
  entryState,
  expectNotDamaged,
  expectStorageFull,
  fillerText,
  fillUntilFull,
} from "./test-support/full-store.js";
import { capturingLogger, tempDir } from "./test-support/temp-memory.js";

/** Where the store lives and how room is freed, twice over. */
interface SmallVolume {
  kind: "tmpfs" | "max_database_mb";
  path: string;
  settings: MemorySettings;
  /** Prepares what takes the room, once the store is open. */
  takeRoom(memory: SqliteMemory): Promise<void>;
  /** Frees the `step`-th share of that room (0, then 1). */
  freeRoom(memory: SqliteMemory, step: number): Promise<void>;
  unmount(): void;
}

/** Mounts a 3 MiB tmpfs holding two 512 KiB ballast files; null when mounting is refused. */
function mountTmpfs(): SmallVolume | null {
  const dir = join(tempDir(), "volume");
  mkdirSync(dir);
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=3m", "tmpfs", dir], { stdio: "pipe" });
  } catch {
    return null;
  }
  const ballast = (step: number) => join(dir, `ballast-${step}`);
  return {
    kind: "tmpfs",
    path: join(dir, "brain.db"),
    settings: DEFAULT_CONFIG.memory,
    async takeRoom() {
      for (const step of [0, 1]) writeFileSync(ballast(step), Buffer.alloc(512 * 1024, 1));
    },
    async freeRoom(_memory, step) {
      rmSync(ballast(step));
    },
    unmount() {
      execFileSync("umount", [dir], { stdio: "pipe" });
    },
  };
}

/** A 1 MiB cap, with two namespaces of entries as the ballast. */
function cappedFile(): SmallVolume {
  return {
    kind: "max_database_mb",
    path: join(tempDir(), "brain.db"),
    settings: { ...DEFAULT_CONFIG.memory, maxDatabaseMb: 1 },
    async takeRoom(memory) {
      for (const step of [0, 1]) {
        const namespace = `ballast-${step}`;
        const entries = Array.from({ length: 150 }, (_, i) => ({
          namespace,
          key: `b${i}`,
          content: fillerText(i),
        }));
        await memory.import(entries);
      }
    },
    async freeRoom(memory, step) {
      await memory.purgeNamespace(`ballast-${step}`);
    },
    unmount() {},
  };
}

describe("a full file system", () => {
  it("refuses writes with STORAGE_FULL (ENOSPC), keeps reads going, and takes writes again once room is freed", async () => {
    const volume = mountTmpfs() ?? cappedFile();
    const logger = capturingLogger();
    let memory: SqliteMemory | null = null;
    try {
      memory = SqliteMemory.open({ path: volume.path, settings: volume.settings, logger });
      await volume.takeRoom(memory);
      await memory.store("kept", "apricot jam, the first version");
      const { stored, refusal } = await fillUntilFull(memory);
      const before = await entryState(memory, "kept");

      const rewrite = await memory
        .store("kept", `gooseberry ${fillerText(0).repeat(40)}`)
        .catch((e: unknown) => e);
      // A bulk import (checkpointed by the worker thread) meets the full disk too.
      const bulk = Array.from({ length: 2_000 }, (_, i) => ({ key: `bulk-${i}`, content: fillerText(i) }));
      const imported = await memory.import(bulk).catch((e: unknown) => e);
      await memory.flush();

      expect(stored).toBeGreaterThan(5);
      expectStorageFull(refusal);
      expectStorageFull(rewrite);
      expectStorageFull(imported);
      expect(await entryState(memory, "kept")).toEqual(before);
      expect(await memory.get("bulk-0")).toBeNull();
      expect(await memory.recall("gooseberry", { mode: "bm25" })).toEqual([]);
      expect((await memory.recall("apricot", { mode: "bm25" })).map((e) => e.key)).toEqual(["kept"]);
      expect((await memory.list({ limit: 3 })).length).toBe(3);
      await expectNotDamaged(memory, volume.path);

      await volume.freeRoom(memory, 0);
      await memory.store("kept", "apricot jam, the second version");
      await volume.freeRoom(memory, 1);
      expect(await memory.import(bulk.slice(0, 20))).toBe(20);
      expect((await memory.get("kept"))?.content).toBe("apricot jam, the second version");
      const count = await memory.count();
      await memory.close();
      memory = null;

      // Closed cleanly: everything written is in the file, which is whole.
      const db = new Database(volume.path, { readonly: true });
      try {
        expect(db.pragma("integrity_check", { simple: true })).toBe("ok");
        expect(db.prepare("SELECT count(*) FROM memories").pluck().get()).toBe(count);
      } finally {
        db.close();
      }
      expect(logger.warnings).toEqual([]);
      expect(count).toBe(stored + 1 + 20);
    } finally {
      await memory?.close();
      volume.unmount();
    }
  });
});
