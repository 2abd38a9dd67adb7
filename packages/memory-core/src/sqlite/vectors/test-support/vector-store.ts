import { randomUUID } from "node:crypto";
import { silentLogger } from "@claw/memory-api";
import { expect, onTestFinished } from "vitest";
import { DEFAULT_CONFIG } from "../../../config/config-schema.js";
import { openStore } from "../../open-store.js";
import { createMetaStore, type MetaStore } from "../../schema/meta-store.js";
import { connectionSizes } from "../../schema/open-database.js";
import type { StatementCache } from "../../schema/statement-cache.js";
import { SqliteMemory } from "../../sqlite-memory.js";
import { ENCODING_KEY, parseEncoding } from "../encoding-state.js";
import { encodedToBlob, VectorEncoder } from "../vector-encoder.js";
import { createVectorIndex, type VectorIndex, type VectorIndexOptions } from "../vector-index.js";
import { tableProvider, type VectorSet } from "./vector-sets.js";

export interface OpenedIndex {
  index: VectorIndex;
  meta: MetaStore;
  db: ReturnType<typeof openStore>["db"];
  /** The set's index of each rid. */
  indexOf(rid: number): number;
}

/** The text stored for vector `i` of a set: the provider answers it with that vector. */
export const textOf = (i: number) => `vector ${i}`;

/** A SqliteMemory whose provider embeds `textOf(i)` as `set.vectors[i]`, closed after the test. */
export function openSetMemory(path: string, set: VectorSet, loadVectorExtension = true): SqliteMemory {
  const table = new Map(set.vectors.map((v, i) => [textOf(i), v] as const));
  const memory = SqliteMemory.open({
    path,
    embeddings: tableProvider(set.dimensions, table),
    loadVectorExtension,
  });
  onTestFinished(() => memory.close());
  return memory;
}

/** Stores vectors `from .. to - 1` of the set through the public API and waits for their codes. */
export async function storeVectors(memory: SqliteMemory, from: number, to: number): Promise<void> {
  const entries = [];
  for (let i = from; i < to; i++) entries.push({ key: `k${i}`, content: textOf(i) });
  await memory.import(entries);
  await memory.flush();
}

/** A second connection with its own vector index, as another process would have. */
export function openIndex(
  path: string,
  options: {
    minCandidates?: number;
    loadVectorExtension?: boolean;
    /** Wraps the statements the index runs (to record them). */
    statements?: (statements: StatementCache) => StatementCache;
  } & Pick<VectorIndexOptions, "inlineRebuildMax" | "rebuildPageRows" | "rebuildPause" | "logger"> = {},
): OpenedIndex {
  const store = openStore({
    path,
    provider: null,
    logger: silentLogger,
    newId: randomUUID,
    loadVectorExtension: options.loadVectorExtension ?? true,
    sizes: connectionSizes(DEFAULT_CONFIG.memory),
  });
  const meta = createMetaStore(store.db);
  const statements = options.statements?.(store.statements) ?? store.statements;
  const index = createVectorIndex(store.db, statements, meta, store.vectors.kind === "sqlite-vec", {
    minCandidates: options.minCandidates,
    inlineRebuildMax: options.inlineRebuildMax,
    rebuildPageRows: options.rebuildPageRows,
    rebuildPause: options.rebuildPause,
    logger: options.logger,
  });
  onTestFinished(async () => {
    // A rebuild under way stops before the connection closes under it.
    await index.close();
    store.db.close();
  });
  return {
    index,
    meta,
    db: store.db,
    indexOf(rid) {
      const key = store.db.prepare("SELECT key FROM memories WHERE rid = ?").pluck().get(rid) as string;
      return Number(key.slice(1));
    },
  };
}

/**
 * Every stored code against the stored encoding applied to its row's vector now, one per row with
 * a vector; their seqs distinct, and 1..n when `contiguous` (as a rebuild writes them).
 */
export function expectCodesOfRows(opened: OpenedIndex, contiguous = true): number {
  const encoding = parseEncoding(opened.meta.get(ENCODING_KEY));
  if (encoding === null) throw new Error("no encoding");
  const encoder = new VectorEncoder(encoding);
  const rows = opened.db
    .prepare(
      `SELECT c.rid, c.code, c.seq, m.embedding FROM memory_codes c LEFT JOIN memories m ON m.rid = c.rid ORDER BY c.seq`,
    )
    .raw()
    .all() as Array<[number, Buffer, number, Buffer | null]>;
  const withVectors = opened.db
    .prepare("SELECT count(*) FROM memories WHERE embedding IS NOT NULL")
    .pluck()
    .get() as number;
  expect(rows).toHaveLength(withVectors);
  rows.forEach(([rid, code, seq, embedding], i) => {
    expect(embedding, `rid ${rid}`).not.toBeNull();
    expect(code.equals(encodedToBlob(encoder.encode(embedding as Buffer))), `rid ${rid}`).toBe(true);
    if (contiguous) expect(seq).toBe(i + 1);
  });
  expect(new Set(rows.map((row) => row[2])).size).toBe(rows.length);
  return rows.length;
}
