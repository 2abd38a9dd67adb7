import { describe, expect, it } from "vitest";
import { buildMemoryMb } from "./vector-index.js";

describe("buildMemoryMb: the memory an HNSW build asks for", () => {
  it("is 256 MB for small tables, whatever their dimensions", () => {
    expect(buildMemoryMb(0, 64, false, 64)).toBe(256);
    expect(buildMemoryMb(100_000, 64, false, 64)).toBe(256);
    expect(buildMemoryMb(30_000, 1536, false, 64)).toBe(256);
    expect(buildMemoryMb(50_000, 1536, false, 64)).toBe(330);
  });

  it("grows with the graph: rows × (vector + 768 bytes), up to 1 GB", () => {
    // 300k × (256 + 768) bytes = 293 MB.
    expect(buildMemoryMb(300_000, 64, false, 64)).toBe(293);
    // 1M × 64 dims: 977 MB, in memory (on disk after 256 MB, the build ran over 38 min instead of 8).
    expect(buildMemoryMb(1_000_000, 64, false, 64)).toBe(977);
    expect(buildMemoryMb(1_000_000, 1536, false, 64)).toBe(1024);
  });

  it("counts halfvec's 2 bytes a dimension", () => {
    expect(buildMemoryMb(200_000, 3072, true, 64)).toBe(1024);
    expect(buildMemoryMb(100_000, 3072, true, 64)).toBe(660);
  });

  it("never asks for less than the role's own maintenance_work_mem", () => {
    expect(buildMemoryMb(1_000_000, 1536, false, 8192)).toBe(8192);
    expect(buildMemoryMb(10, 64, false, 512)).toBe(512);
  });
});
