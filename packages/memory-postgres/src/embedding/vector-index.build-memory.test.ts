import { describe, expect, it } from "vitest";
import { buildMemoryMb, buildMemoryWarning, graphMemoryMb } from "./vector-index.js";

/** What a build of `rows` asks for, the session's setting being `currentMb`. */
function asked(rows: number, dimensions: number, half: boolean, currentMb: number, maxMb?: number): number {
  return buildMemoryMb(graphMemoryMb(rows, dimensions, half), currentMb, maxMb);
}

describe("buildMemoryMb: the memory an HNSW build asks for", () => {
  it("is 256 MB for small tables, whatever their dimensions", () => {
    expect(asked(0, 64, false, 64)).toBe(256);
    expect(asked(100_000, 64, false, 64)).toBe(256);
    expect(asked(30_000, 1536, false, 64)).toBe(256);
    expect(asked(50_000, 1536, false, 64)).toBe(330);
  });

  it("grows with the graph: rows × (vector + 768 bytes), up to 1 GB", () => {
    // 300k × (256 + 768) bytes = 293 MB.
    expect(graphMemoryMb(300_000, 64, false)).toBe(293);
    expect(asked(300_000, 64, false, 64)).toBe(293);
    // 1M × 64 dims: 977 MB, in memory (on disk after 256 MB, the build ran over 38 min instead of 8).
    expect(asked(1_000_000, 64, false, 64)).toBe(977);
    expect(asked(1_000_000, 1536, false, 64)).toBe(1024);
  });

  it("counts halfvec's 2 bytes a dimension", () => {
    expect(asked(200_000, 3072, true, 64)).toBe(1024);
    expect(asked(100_000, 3072, true, 64)).toBe(660);
  });

  it("never asks for less than the role's own maintenance_work_mem", () => {
    expect(asked(1_000_000, 1536, false, 8192)).toBe(8192);
    expect(asked(10, 64, false, 512)).toBe(512);
  });

  it("stops at the store's indexBuildMemoryMb, below the 256 MB floor too", () => {
    expect(asked(1_000_000, 1536, false, 64, 8192)).toBe(graphMemoryMb(1_000_000, 1536, false));
    expect(asked(1_000_000, 1536, false, 64, 4096)).toBe(4096);
    expect(asked(300_000, 64, false, 64, 128)).toBe(128);
    expect(asked(10, 64, false, 1, 1)).toBe(1);
    // The role's own setting still wins.
    expect(asked(300_000, 64, false, 512, 128)).toBe(512);
  });
});

describe("buildMemoryWarning: a graph that did not fit", () => {
  it("names the memory needed, the memory given and the setting to raise", () => {
    const warning = buildMemoryWarning({ rows: 200_000, neededMb: 1318, memoryMb: 1024 });
    expect(warning).toContain("~1318 MB for 200000 rows");
    expect(warning).toContain("had 1024 MB");
    expect(warning).toContain("indexBuildMemoryMb");
  });

  it("is null when the graph fit, or when nothing was built", () => {
    expect(buildMemoryWarning({ rows: 100_000, neededMb: 98, memoryMb: 256 })).toBeNull();
    expect(buildMemoryWarning({ rows: 1_000_000, neededMb: 1024, memoryMb: 1024 })).toBeNull();
    expect(buildMemoryWarning(null)).toBeNull();
  });
});
