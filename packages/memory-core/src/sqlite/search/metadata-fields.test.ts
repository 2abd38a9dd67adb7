import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { createHashingEmbeddingProvider } from "../../embedding/hashing-embedding-provider.js";
import { whereOf } from "../../metadata/where-filter.js";
import { createStatementCache } from "../schema/statement-cache.js";
import { backToSchema6 } from "../test-support/schema-6.js";
import { openTestMemory, tempDir } from "../test-support/temp-memory.js";
import { fieldsOf, narrowestField } from "./metadata-fields.js";

/** The index rows of the store at `path`, as `path kind value → keys`. */
function indexed(path: string): Record<string, string[]> {
  const db = new Database(path, { readonly: true });
  try {
    const rows = db
      .prepare(
        `SELECT f.path, f.kind, f.value, m.key FROM memory_fields f JOIN memories m ON m.rid = f.rid
         ORDER BY f.path, f.kind, f.value, m.key`,
      )
      .all() as Array<{ path: string; kind: number; value: unknown; key: string }>;
    const out: Record<string, string[]> = {};
    for (const r of rows) {
      const id = `${r.path} ${r.kind} ${String(r.value)}`;
      out[id] = [...(out[id] ?? []), r.key];
    }
    return out;
  } finally {
    db.close();
  }
}

describe("metadata field index", () => {
  it("indexes the scalars a `where` path can address, typed, and nothing inside arrays", () => {
    expect(
      fieldsOf({
        project: "alpha",
        n: 2,
        ok: true,
        none: null,
        owner: { team: "core", tags: ["a"] },
        "bad key": 1,
        list: [1, 2],
      }),
    ).toEqual([
      ["project", 3, "alpha"],
      ["n", 2, 2],
      ["ok", 1, 1],
      ["none", 0, ""],
      ["owner.team", 3, "core"],
    ]);
  });

  it("follows every write: a new value replaces the old, forget and purge remove them", async () => {
    const path = join(tempDir(), "brain.db");
    const memory = openTestMemory({ path });
    await memory.store("a", "first", { metadata: { project: "alpha", n: 1 } });
    await memory.store("b", "second", { metadata: { project: "beta" } });
    await memory.store("a", "first, moved", { metadata: { project: "gamma" } });
    await memory.import([{ key: "c", content: "third", metadata: { project: "beta" }, namespace: "other" }]);
    expect(indexed(path)).toEqual({ "project 3 beta": ["b", "c"], "project 3 gamma": ["a"] });
    await memory.forget("b");
    await memory.purgeNamespace("other");
    expect(indexed(path)).toEqual({ "project 3 gamma": ["a"] });
    // The same metadata again changes no index row.
    await memory.store("a", "first, moved again", { metadata: { project: "gamma" } });
    expect(indexed(path)).toEqual({ "project 3 gamma": ["a"] });
  });

  it("names the narrowest condition it can answer, typed, and none it cannot", async () => {
    const path = join(tempDir(), "brain.db");
    const memory = openTestMemory({ path });
    await memory.import(
      Array.from({ length: 30 }, (_, i) => ({
        key: `k${i}`,
        content: `entry ${i}`,
        metadata: { project: i % 3 === 0 ? "alpha" : "beta", n: i, flag: i === 4, label: String(i) },
      })),
    );
    await memory.close();
    const db = new Database(path, { readonly: true });
    const statements = createStatementCache(db);
    const count = (where: object, cap = 100) =>
      narrowestField(statements, whereOf(where), cap)?.count ?? null;
    try {
      expect(count({ project: "alpha" })).toBe(10);
      expect(count({ project: "alpha", n: { $gte: 27 } })).toBe(3);
      expect(count({ n: { $lt: 5 }, label: { $in: ["1", "2", "99"] } })).toBe(2);
      // Typed: the number 4 is not the string "4", true is not 1.
      expect(count({ label: 4 })).toBe(0);
      expect(count({ n: "4" })).toBe(0);
      expect(count({ flag: true })).toBe(1);
      expect(count({ flag: 1 })).toBe(0);
      // $ne, $nin and $exists are never answered from the index; over the cap is no narrowing.
      expect(count({ project: { $ne: "alpha" } })).toBeNull();
      expect(count({ project: { $exists: true } })).toBeNull();
      expect(count({ project: "beta" }, 10)).toBeNull();
    } finally {
      db.close();
    }
  });

  it("filtered recall through the index returns what the full filter returns, in every mode", async () => {
    const memory = openTestMemory({ embeddings: createHashingEmbeddingProvider({ dimensions: 64 }) });
    await memory.import(
      Array.from({ length: 400 }, (_, i) => ({
        key: `k${i}`,
        content: `deploy pipeline note ${i} about release ${i % 7}`,
        metadata: { project: `p${i % 20}`, n: i },
      })),
    );
    await memory.flush();
    for (const mode of ["bm25", "embedding", "hybrid"] as const) {
      const narrowed = await memory.recall("deploy release 3", { mode, limit: 5, where: { project: "p3" } });
      // The same entries by $nin, which the index cannot answer: the filter runs on the rows.
      const others = Array.from({ length: 20 }, (_, i) => `p${i}`).filter((p) => p !== "p3");
      const scanned = await memory.recall("deploy release 3", {
        mode,
        limit: 5,
        where: { project: { $nin: others } },
      });
      expect(narrowed.map((e) => e.key)).toEqual(scanned.map((e) => e.key));
      expect(narrowed.length).toBe(5);
      expect(narrowed.every((e) => e.metadata?.project === "p3")).toBe(true);
    }
    expect(await memory.recall("deploy", { where: { project: "nowhere" } })).toEqual([]);
  });

  it("a store upgraded from schema 6 indexes the metadata it already held", async () => {
    const path = join(tempDir(), "brain.db");
    const before = openTestMemory({ path });
    await before.store("tea", "green tea", { metadata: { drink: "tea" } });
    await before.close();
    const db = new Database(path);
    backToSchema6(db);
    db.close();
    const after = openTestMemory({ path });
    expect((await after.recall("green", { where: { drink: "tea" } })).map((e) => e.key)).toEqual(["tea"]);
    await after.close();
    expect(indexed(path)).toEqual({ "drink 3 tea": ["tea"] });
  });
});
