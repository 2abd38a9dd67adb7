import Database from "better-sqlite3";
import { describe, expect, it, onTestFinished } from "vitest";
import { createStatementCache } from "../schema/statement-cache.js";
import { createCodeWrites } from "./code-writes.js";
import { CODES_TABLE } from "./codes-rebuild.js";

function open() {
  const db = new Database(":memory:");
  onTestFinished(() => {
    db.close();
  });
  db.exec(CODES_TABLE);
  db.exec("CREATE INDEX memory_codes_seq ON memory_codes(seq)");
  const table = () =>
    db.prepare("SELECT rid, namespace, code, seq FROM memory_codes ORDER BY seq").raw().all() as Array<
      [number, string, Buffer, number]
    >;
  return { db, writes: createCodeWrites(createStatementCache(db)), table };
}

const code = (byte: number) => Buffer.alloc(4, byte);

describe("code writes", () => {
  it("writes a code at once outside a bulk write, with the next seq", () => {
    const { writes, table } = open();
    expect(writes.write(7, "a", code(1))).toBe(1);
    expect(writes.write(3, "b", code(2))).toBe(2);
    // Written again: the row moves to the next seq.
    expect(writes.write(7, "a", code(3))).toBe(3);
    expect(table()).toEqual([
      [3, "b", code(2), 2],
      [7, "a", code(3), 3],
    ]);
  });

  it("holds a bulk write's codes until it ends, then writes the last of each with seqs in write order", () => {
    const { writes, table } = open();
    writes.write(100, "a", code(9));
    const seqs = writes.buffered(() => {
      const given = [
        writes.write(5, "a", code(1)),
        writes.write(2, "b", code(2)),
        writes.write(5, "a", code(3)),
      ];
      writes.write(8, "a", code(4));
      writes.remove(8);
      writes.remove(100);
      // Nothing buffered is in the table yet; the removal of a written code is.
      expect(table()).toEqual([]);
      return given;
    });
    expect(seqs).toEqual([2, 3, 4]);
    expect(table()).toEqual([
      [2, "b", code(2), 3],
      [5, "a", code(3), 4],
    ]);
    // After it, seqs go on from the table.
    expect(writes.write(1, "a", code(5))).toBe(5);
  });

  it("writes nothing of a bulk write that throws, and numbers the next one from the table", () => {
    const { writes, table } = open();
    writes.write(1, "a", code(1));
    expect(() =>
      writes.buffered(() => {
        writes.write(2, "a", code(2));
        writes.write(3, "a", code(3));
        throw new Error("rolled back");
      }),
    ).toThrow("rolled back");
    expect(table()).toEqual([[1, "a", code(1), 1]]);
    writes.buffered(() => writes.write(4, "a", code(4)));
    expect(table()).toEqual([
      [1, "a", code(1), 1],
      [4, "a", code(4), 2],
    ]);
  });

  it("flushes on demand within a bulk write, and a nested one writes only when the outermost ends", () => {
    const { writes, table } = open();
    writes.buffered(() => {
      writes.write(9, "a", code(1));
      writes.flush();
      expect(table()).toEqual([[9, "a", code(1), 1]]);
      writes.buffered(() => writes.write(4, "a", code(2)));
      expect(table()).toHaveLength(1);
      writes.write(6, "a", code(3));
      writes.discard();
    });
    expect(table()).toEqual([[9, "a", code(1), 1]]);
  });
});
