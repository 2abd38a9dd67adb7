import type { MemoryEntry } from "@claw/memory-api";
import { describe, expect, it } from "vitest";
import { exportPages } from "./export-pages.js";

const rowsUpTo = (n: number) => Array.from({ length: n }, (_, i) => ({ rid: (i + 1) * 2 }));
const entry = (row: { rid: number }) => ({ key: `r${row.rid}` }) as MemoryEntry;

async function run(total: number, limit: number) {
  const rows = rowsUpTo(total);
  const reads: number[] = [];
  const keys: string[] = [];
  const read = async (afterRid: number, n: number) => {
    reads.push(afterRid);
    return rows.filter((r) => r.rid > afterRid).slice(0, n);
  };
  for await (const e of exportPages(read, entry, limit)) keys.push(e.key);
  return { reads, keys };
}

describe("exportPages", () => {
  it("reads each page after the last row id of the one before, until a short page", async () => {
    const { reads, keys } = await run(5, 2);
    expect(reads).toEqual([0, 4, 8]);
    expect(keys).toEqual(["r2", "r4", "r6", "r8", "r10"]);
  });

  it("reads once more after a full last page, and once for nothing", async () => {
    expect((await run(4, 2)).reads).toEqual([0, 4, 8]);
    expect(await run(0, 2)).toEqual({ reads: [0], keys: [] });
  });
});
