/**
 * Orama (pure JavaScript, in memory) loaded with the same sentences and vectors: the peer that
 * claw's keyword and hybrid latencies are read against.
 */
import { create, insertMultiple, search } from "@orama/orama";
import type { Corpus } from "./corpus.js";

export interface OramaEngine {
  readonly insertPerSecond: number;
  keyword(text: string, k: number): Promise<number[]>;
  vector(vector: Float32Array, k: number): Promise<number[]>;
  hybrid(text: string, vector: Float32Array, k: number): Promise<number[]>;
}

/**
 * Orama drops neighbours under a similarity threshold (default 0.8, which would leave fewer than
 * ten). 0.3 keeps every entry of the query's cluster (cosine ≈ 0.6) and drops unrelated clusters
 * (≈ 0), so the top ten are the exact ones and Orama sorts only the cluster it found.
 */
export const ORAMA_SIMILARITY = 0.3;

const INSERT_BATCH = 1_000;

/** Indexes entries `0 .. corpus.size - 1`, taking vectors from `matrix` (row-major). */
export async function createOramaEngine(corpus: Corpus, matrix: Float32Array): Promise<OramaEngine> {
  const { dimensions } = corpus;
  const db = create({
    schema: { content: "string", embedding: `vector[${dimensions}]` as `vector[${number}]` },
  });
  const start = process.hrtime.bigint();
  for (let from = 0; from < corpus.size; from += INSERT_BATCH) {
    const docs = [];
    for (let i = from; i < Math.min(corpus.size, from + INSERT_BATCH); i++) {
      // Orama's schema check accepts plain arrays only (it copies them into a Float32Array).
      const row = matrix.subarray(i * dimensions, (i + 1) * dimensions);
      docs.push({ id: String(i), content: corpus.sentenceAt(i), embedding: Array.from(row) });
    }
    await insertMultiple(db, docs, INSERT_BATCH);
  }
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const ids = (hits: ReadonlyArray<{ id: string }>) => hits.map((h) => Number(h.id));
  return {
    insertPerSecond: corpus.size / Math.max(seconds, 1e-9),
    async keyword(term, k) {
      return ids((await search(db, { mode: "fulltext", term, limit: k })).hits);
    },
    async vector(value, k) {
      const result = await search(db, {
        mode: "vector",
        vector: { value, property: "embedding" },
        similarity: ORAMA_SIMILARITY,
        limit: k,
      });
      return ids(result.hits);
    },
    async hybrid(term, value, k) {
      const result = await search(db, {
        mode: "hybrid",
        term,
        vector: { value, property: "embedding" },
        similarity: ORAMA_SIMILARITY,
        limit: k,
      });
      return ids(result.hits);
    },
  };
}
