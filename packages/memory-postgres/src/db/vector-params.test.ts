import { createHashingEmbeddingProvider } from "@claw/memory-core";
import { describe, expect, it } from "vitest";
import { forEachTestDatabase, needsPgvector, pgClient } from "../test-support/test-database.js";
import { openTestMemory } from "../test-support/test-memory.js";
import { BinaryCopyWriter } from "./copy-binary.js";
import { pgvectorParam, vectorParam, vectorsParam } from "./vector-params.js";
import { vectorText } from "./vector-text.js";

const odd = Float32Array.of(
  0.1,
  -0,
  1.401298464324817e-45,
  -3.4028234663852886e38,
  Number.NaN,
  -Infinity,
  1 / 3,
);

describe("vector parameters in binary", () => {
  it("are the float4 array a binary COPY sends, without its length", () => {
    const copy = new BinaryCopyWriter();
    copy.row([{ type: "float4[]", value: odd }]);
    // Past the COPY header (19 bytes), the field count (2) and the field's length (4); the trailer.
    const field = Buffer.concat(copy.end()).subarray(19 + 2 + 4, -2);
    expect(vectorParam(odd).toString("hex")).toBe(field.toString("hex"));
  });

  it("one vector as pgvector's binary form: its dimensions, a zero, the floats big-endian", () => {
    const bytes = pgvectorParam(Float32Array.of(1, -2.5, 1 / 3));
    expect(bytes.length).toBe(4 + 3 * 4);
    expect([bytes.readInt16BE(0), bytes.readInt16BE(2)]).toEqual([3, 0]);
    expect([bytes.readFloatBE(4), bytes.readFloatBE(8), bytes.readFloatBE(12)]).toEqual([
      1,
      -2.5,
      Math.fround(1 / 3),
    ]);
  });

  it("put many vectors end to end, with each one's bounds", () => {
    const { flat, first, last } = vectorsParam([
      Float32Array.of(1, 2),
      Float32Array.of(3),
      Float32Array.of(4, 5, 6),
    ]);
    expect(first).toEqual([1, 3, 4]);
    expect(last).toEqual([2, 3, 6]);
    expect(flat.readInt32BE(12)).toBe(6); // elements in all
    expect(flat.length).toBe(20 + 6 * 8);
  });
});

forEachTestDatabase((database) => {
  describe("vector parameters on the server", () => {
    it("each slice reads back bit for bit, numbered from 1", async () => {
      const vectors = [
        odd,
        Float32Array.of(2.5),
        Float32Array.from({ length: 1536 }, (_, i) => Math.sin(i) / 7),
      ];
      const { flat, first, last } = vectorsParam(vectors);
      const client = await pgClient(database().url);
      const { rows } = await client.query<{ v: number[]; lower: number; one: number[] }>(
        `SELECT ($1::real[])[s.first:s.last] AS v, array_lower(($1::real[])[s.first:s.last], 1) AS lower,
           $4::real[] AS one
         FROM unnest($2::int4[], $3::int4[]) WITH ORDINALITY AS s(first, last, i) ORDER BY s.i`,
        [flat, first, last, vectorParam(Float32Array.of(7, -0.125))],
      );
      expect(rows.map((r) => Array.from(Float32Array.from(r.v.map(Number))))).toEqual(
        vectors.map((v) => Array.from(v)),
      );
      expect(rows.map((r) => r.lower)).toEqual([1, 1, 1]);
      expect(rows[0]?.one.map(Number)).toEqual([7, -0.125]);
    });

    it("a binary vector parameter is the vector its text gives, bit for bit, distances included", async (ctx) => {
      needsPgvector(ctx, database());
      // pgvector is created by the first open of a store with a provider.
      await (
        await openTestMemory(database(), { embeddings: createHashingEmbeddingProvider({ dimensions: 4 }) })
      ).close();
      const { rows: found } = await database().query(
        `SELECT quote_ident(n.nspname) AS schema FROM pg_extension e
         JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'vector'`,
      );
      const type = `${found[0]?.schema as string}.vector(1536)`;
      const query = Float32Array.from({ length: 1536 }, (_, i) => Math.sin(i * 0.7) / (1 + (i % 5)));
      const stored = Float32Array.from({ length: 1536 }, (_, i) => Math.cos(i * 0.3) / 3);
      const client = await pgClient(database().url);
      const { rows } = await client.query<{ back: number[]; same: boolean; binary: number; text: number }>(
        `SELECT $1::${type}::real[] AS back, $1::${type} = $2::${type} AS same,
           $3::real[]::${type} OPERATOR(${found[0]?.schema as string}.<=>) $1::${type} AS binary,
           $3::real[]::${type} OPERATOR(${found[0]?.schema as string}.<=>) $2::${type} AS text`,
        [pgvectorParam(query), vectorText(query, "[]"), vectorParam(stored)],
      );
      expect(Array.from(Float32Array.from(rows[0]?.back ?? []))).toEqual(Array.from(query));
      expect(rows[0]?.same).toBe(true);
      expect(rows[0]?.binary).toBe(rows[0]?.text);
      expect(rows[0]?.binary).toBeGreaterThan(0);
    });
  });
});
