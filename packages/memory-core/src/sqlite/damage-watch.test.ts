// A damaged file found while the store runs: the failure is CORRUPT, writes are refused from then
// on (in this process and the next: the marker beside the file), reads of whole pages go on,
// status() says it with the command to run; a passing `doctor --repair` lifts it.
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isMemoryError } from "@claw/memory-api";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createMemory } from "../create-memory.js";
import { damagedCopy, leafPagesOf, rowidsOnLeafPage } from "../testkit/damaged-copy.js";
import { rejectionOf } from "../testkit/rejection-of.js";
import { recordingLogger } from "../testkit/temp-memory.js";
import { damageMarkerPath } from "./damage-watch.js";
import { doctorStore } from "./doctor/doctor.js";

let root: string;
let workspace: string;
let path: string;

const failure = (call: () => Promise<unknown>) => rejectionOf(call());

/** A 3,000-entry store whose `table` has one leaf page overwritten; the keys the original held on it (tables only). */
async function damagedStore(table: string): Promise<string[]> {
  const source = join(root, "source");
  const memory = await createMemory({ workspaceDir: source, embeddings: null });
  await memory.import(
    Array.from({ length: 3000 }, (_, i) => ({ key: `k${i}`, content: `entry ${i} about walrus${i}` })),
  );
  await memory.close();
  const sourcePath = join(source, "brain.db");
  const db = new Database(sourcePath);
  db.pragma("wal_checkpoint(TRUNCATE)");
  db.close();
  const page = leafPagesOf(sourcePath, table)[5] as number;
  damagedCopy(sourcePath, path, [page], 42);
  return table === "memories" ? rowidsOnLeafPage(sourcePath, page).map((rid) => `k${rid - 1}`) : [];
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "claw-damage-"));
  workspace = join(root, "workspace");
  path = join(workspace, "brain.db");
  mkdirSync(workspace);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("a damaged file seen at run time", () => {
  it("refuses writes with CORRUPT once a read meets the damage; whole pages still read; status says it", async () => {
    await damagedStore("memories");
    const logger = recordingLogger();
    const memory = await createMemory({ workspaceDir: workspace, embeddings: null, logger });
    try {
      // Before the damage is met, nothing is known.
      expect((await memory.get("k0"))?.content).toBe("entry 0 about walrus0");
      expect(existsSync(damageMarkerPath(path))).toBe(false);

      const listed = await failure(() => memory.list({ limit: 10_000 }));
      expect(isMemoryError(listed, "CORRUPT")).toBe(true);

      const refused = await failure(() => memory.store("new", "a new entry"));
      expect(isMemoryError(refused, "CORRUPT")).toBe(true);
      expect((refused as Error).message).toContain("claw-memory doctor");
      expect(await memory.get("new")).toBeNull();
      const forget = await failure(() => memory.forget("k0"));
      expect(isMemoryError(forget, "CORRUPT")).toBe(true);

      // Reads of whole pages go on.
      expect((await memory.get("k0"))?.content).toBe("entry 0 about walrus0");
      const status = await memory.status();
      expect(status.corrupt).toContain("doctor --repair");
      expect(status.warnings).toContain(status.corrupt);
      expect(existsSync(damageMarkerPath(path))).toBe(true);
      expect(
        logger.lines.filter((line) => line.startsWith("error:") && line.includes("is damaged")),
      ).toHaveLength(1);
    } finally {
      await memory.close();
    }

    // The next process knows too: writes stay refused.
    const again = await createMemory({ workspaceDir: workspace, embeddings: null });
    try {
      expect((await again.status()).corrupt).toContain("is damaged");
      expect(isMemoryError(await failure(() => again.store("new", "x")), "CORRUPT")).toBe(true);
    } finally {
      await again.close();
    }
  });

  it("a recall that meets the damage marks it too", async () => {
    const [onDamagedPage] = await damagedStore("memories");
    const memory = await createMemory({ workspaceDir: workspace, embeddings: null });
    try {
      const number = (onDamagedPage as string).slice(1);
      const recalled = await failure(() => memory.recall(`walrus${number}`, { limit: 5 }));
      expect(isMemoryError(recalled, "CORRUPT")).toBe(true);
      expect(isMemoryError(await failure(() => memory.store("new", "x")), "CORRUPT")).toBe(true);
      expect(existsSync(damageMarkerPath(path))).toBe(true);
    } finally {
      await memory.close();
    }
  });

  it("damage to an index, met by get(), is lifted by a passing doctor --repair", async () => {
    await damagedStore("memories_namespace_key");
    const memory = await createMemory({ workspaceDir: workspace, embeddings: null });
    try {
      // Some key lookups go through the damaged index page.
      const lookups = await Promise.allSettled(Array.from({ length: 3000 }, (_, i) => memory.get(`k${i}`)));
      expect(lookups.some((r) => r.status === "rejected" && isMemoryError(r.reason, "CORRUPT"))).toBe(true);
      expect(isMemoryError(await failure(() => memory.store("new", "x")), "CORRUPT")).toBe(true);
    } finally {
      await memory.close();
    }

    const report = doctorStore(path, { repair: true });
    expect(report.ok).toBe(true);
    expect(report.repaired?.entries).toBe(3000);
    expect(existsSync(damageMarkerPath(path))).toBe(false);
    const repaired = await createMemory({ workspaceDir: workspace, embeddings: null });
    try {
      expect((await repaired.store("new", "written after the repair")).key).toBe("new");
      expect((await repaired.recall("walrus2100", { limit: 1 }))[0]?.key).toBe("k2100");
      expect(await repaired.count()).toBe(3001);
      expect((await repaired.status()).corrupt).toBeUndefined();
    } finally {
      await repaired.close();
    }
  });
});
