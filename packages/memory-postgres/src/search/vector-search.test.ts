import { createHashingEmbeddingProvider } from "@claw/memory-core";
import { describe, expect, it } from "vitest";
import type { Queryable } from "../db/pool.js";
import { sqlNames } from "../db/sql-names.js";
import { vectorSearchFor } from "../embedding/vector-index.js";
import { forEachTestDatabase, needsPgvector, pgClient } from "../test-support/test-database.js";
import { openTestMemory, schemaOf } from "../test-support/test-memory.js";
import { searchVectors } from "./vector-search.js";

forEachTestDatabase((database) => {
  describe("searchVectors", () => {
    it("takes k neighbours from the index as the answer, dropping unrelated ones, in one query", async (ctx) => {
      needsPgvector(ctx, database()); // the JS path has no index (vector-index.test.ts)
      const memory = await openTestMemory(database(), {
        embeddings: createHashingEmbeddingProvider({ dimensions: 4 }),
      });
      await memory.import([
        { key: "near", content: "near", embedding: Float32Array.from([1, 0, 0, 0]) },
        { key: "close", content: "close", embedding: Float32Array.from([0.8, 0.2, 0, 0]) },
        { key: "opposite", content: "opposite", embedding: Float32Array.from([-1, 0, 0, 0]) },
      ]);
      const rids = new Map(
        (await database().query(`SELECT rid, key FROM "${schemaOf(memory)}".claw_memories`)).rows.map((r) => [
          Number(r.rid),
          r.key as string,
        ]),
      );
      const { rows } = await database().query(
        `SELECT n.nspname AS schema, e.extversion AS version
         FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'vector'`,
      );
      const queries: string[] = [];
      // Through node-postgres, as the store sends it (the query vector is a binary parameter).
      const client = await pgClient(database().url);
      const counting = {
        query: (sql: string, values?: unknown[]) => {
          queries.push(sql);
          return client.query(sql, values);
        },
      } as unknown as Queryable;
      const hits = await searchVectors(
        counting,
        sqlNames(schemaOf(memory)),
        vectorSearchFor({ schema: rows[0]?.schema as string, version: rows[0]?.version as string }, 4).search,
        Float32Array.from([1, 0, 0, 0]),
        3,
        {},
      );
      // The third neighbour points the other way (cosine -1): not a hit, and no reason to scan again.
      expect(hits.map((h) => rids.get(Number(h.rid)))).toEqual(["near", "close"]);
      expect(queries).toHaveLength(1);
    });
  });
});
