// Damage injected at seeded pages of copies of a 10k-entry store (the header, a table page, an
// index page, the full-text data, the metadata index, the history): every open reports CORRUPT or
// opens and the doctor finds it; --salvage recovers every entry whose page was not hit (checked
// against the original, never writing to the damaged file); --repair fixes what is derived with no
// entry lost, and refuses (changing nothing) when entries are on damaged pages.
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isMemoryError } from "@claw/memory-api";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMemory } from "../../create-memory.js";
import { createHashingEmbeddingProvider } from "../../embedding/hashing-embedding-provider.js";
import { damagedCopy, leafPagesOf, rowidsOnLeafPage, seeded } from "../../testkit/damaged-copy.js";
import { doctorStore } from "./doctor.js";

const ENTRIES = 10_000;
const UPDATED = 2_000;
let root: string;
let original: string;
/** rid → [key, content] of the original, and the history rows by rowid. */
let entries: Map<number, [string, string]>;
let versions: Map<number, string>;

const contentOf = (i: number) => `note ${i} about quokka${i} and the harbour, kept for the doctor`;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "claw-doctor-"));
  const workspace = join(root, "original");
  const memory = await createMemory({
    workspaceDir: workspace,
    embeddings: createHashingEmbeddingProvider({ dimensions: 32 }),
    config: { deferEmbedding: false },
  });
  await memory.import(
    Array.from({ length: ENTRIES }, (_, i) => ({
      key: `k${i}`,
      content: contentOf(i),
      category: "core" as const,
      metadata: { n: i, team: i % 2 === 0 ? "red" : "blue" },
    })),
  );
  // History: the first UPDATED entries get a second version.
  await memory.import(
    Array.from({ length: UPDATED }, (_, i) => ({ key: `k${i}`, content: `${contentOf(i)} (revised)` })),
  );
  await memory.close();
  original = join(workspace, "brain.db");
  const db = new Database(original);
  db.pragma("wal_checkpoint(TRUNCATE)");
  entries = new Map(
    (
      db.prepare("SELECT rid, key, content FROM memories").all() as Array<{
        rid: number;
        key: string;
        content: string;
      }>
    ).map((row) => [row.rid, [row.key, row.content]]),
  );
  versions = new Map(
    (
      db.prepare("SELECT rowid AS r, key || '#' || version AS v FROM memory_versions").all() as Array<{
        r: number;
        v: string;
      }>
    ).map((row) => [row.r, row.v]),
  );
  db.close();
}, 120_000);

afterAll(() => rmSync(root, { recursive: true, force: true }));

const TARGETS = [
  { target: "header", source: false },
  { target: "memories", source: true },
  { target: "memory_versions", source: true },
  { target: "sqlite_autoindex_memories_1", source: false },
  { target: "memories_namespace_key", source: false },
  { target: "memories_fts_data", source: false },
  { target: "memory_fields", source: false },
] as const;

/** Three leaf pages of `target` picked by the seed (page 1's header for "header"). */
function pagesFor(target: string, seed: number): number[] {
  if (target === "header") return [1];
  const leaves = leafPagesOf(original, target);
  const next = seeded(seed);
  const picked = new Set<number>();
  while (picked.size < Math.min(3, leaves.length)) picked.add(leaves[next() % leaves.length] as number);
  return [...picked];
}

function damagedWorkspace(name: string, pages: number[], seed: number): string {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  damagedCopy(original, join(dir, "brain.db"), pages, seed);
  return dir;
}

const digest = (path: string) => createHash("sha256").update(readFileSync(path)).digest("hex");

describe.each(TARGETS.map((t, i) => ({ ...t, seed: 101 + i })))(
  "damage in $target",
  ({ target, source, seed }) => {
    const pages = () => pagesFor(target, seed);

    it("is reported: the open fails with CORRUPT, or the doctor finds it", async () => {
      const dir = damagedWorkspace(`${target}-open`, pages(), seed);
      let opened = false;
      try {
        const memory = await createMemory({ workspaceDir: dir, embeddings: null });
        opened = true;
        await memory.close();
      } catch (error) {
        expect(isMemoryError(error, "CORRUPT")).toBe(true);
      }
      const report = doctorStore(join(dir, "brain.db"));
      expect(report.ok).toBe(false);
      const failed = report.checks.filter((check) => !check.ok).map((check) => check.name);
      expect(failed).toContain("integrity");
      if (!opened) expect(target).toBe("header");
    });

    it("--salvage saves every entry whose page was not hit, without writing to the damaged file", () => {
      const hit = pages();
      const dir = damagedWorkspace(`${target}-salvage`, hit, seed);
      const damaged = join(dir, "brain.db");
      const before = digest(damaged);
      const lostRids = new Set(
        target === "memories" ? hit.flatMap((page) => rowidsOnLeafPage(original, page)) : [],
      );
      const lostVersions = new Set(
        target === "memory_versions" ? hit.flatMap((page) => rowidsOnLeafPage(original, page)) : [],
      );

      const report = doctorStore(damaged, { salvageTo: join(dir, "salvaged.db") });

      expect(digest(damaged)).toBe(before);
      const out = new Database(join(dir, "salvaged.db"), { readonly: true });
      const saved = new Map(
        (
          out.prepare("SELECT rid, key, content FROM memories").all() as Array<{
            rid: number;
            key: string;
            content: string;
          }>
        ).map((row) => [row.rid, [row.key, row.content]]),
      );
      const savedVersions = out
        .prepare("SELECT key || '#' || version FROM memory_versions")
        .pluck()
        .all() as string[];
      expect(out.prepare("PRAGMA integrity_check").pluck().get()).toBe("ok");
      out.close();
      const expected = new Map([...entries].filter(([rid]) => !lostRids.has(rid)));
      expect(saved).toEqual(expected);
      expect(new Set(savedVersions)).toEqual(
        new Set([...versions].filter(([rowid]) => !lostVersions.has(rowid)).map(([, v]) => v)),
      );
      expect(report.salvage).toMatchObject({
        saved: expected.size,
        lost: lostRids.size,
        versionsLost: lostVersions.size,
      });
      if (target === "memories") expect(lostRids.size).toBeGreaterThan(0);
    });

    it(
      source ? "--repair refuses, changing nothing" : "--repair rebuilds it with no entry lost",
      async () => {
        const dir = damagedWorkspace(`${target}-repair`, pages(), seed);
        const damaged = join(dir, "brain.db");
        if (source) {
          const before = digest(damaged);
          let thrown: unknown;
          try {
            doctorStore(damaged, { repair: true });
          } catch (error) {
            thrown = error;
          }
          expect(isMemoryError(thrown, "CORRUPT")).toBe(true);
          expect((thrown as Error).message).toContain("--salvage");
          expect(digest(damaged)).toBe(before);
          return;
        }
        const report = doctorStore(damaged, { repair: true });
        expect(report.ok).toBe(true);
        expect(report.repaired).toMatchObject({ entries: ENTRIES, versions: versions.size });
        expect(report.checks.every((check) => check.ok)).toBe(true);

        const memory = await createMemory({
          workspaceDir: dir,
          embeddings: createHashingEmbeddingProvider({ dimensions: 32 }),
        });
        try {
          expect(await memory.count()).toBe(ENTRIES);
          const [hit] = await memory.recall("quokka4321", { limit: 1 });
          expect(hit?.key).toBe("k4321");
          expect((await memory.list({ where: { n: 7777 } })).map((entry) => entry.key)).toEqual(["k7777"]);
          expect((await memory.history("k5")).map((version) => version.version)).toEqual([2, 1]);
          expect((await memory.store("after-repair", "written after the repair")).key).toBe("after-repair");
          await memory.flush();
          expect((await memory.status()).missingEmbeddings).toBe(0);
        } finally {
          await memory.close();
        }
      },
    );
  },
);
