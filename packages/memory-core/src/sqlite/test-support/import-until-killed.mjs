// Child process of crash.kill-during-import.test.ts: imports chunks of entries with vectors into
// the store at argv[2], reporting each committed chunk on stdout, until the parent kills it.
// Plain JavaScript over the built package, so that it runs as a user's process would.
import { createHashingEmbeddingProvider, DEFAULT_CONFIG, SqliteMemory } from "../../../dist/index.js";

const [path, chunkArg, dimsArg] = process.argv.slice(2);
const chunk = Number(chunkArg);
const dimensions = Number(dimsArg);

/** A deterministic unit vector per entry index (xorshift), so the parent can query by it. */
export function vectorOf(index, dims) {
  let state = (index + 1) * 2654435761;
  const out = new Float32Array(dims);
  let norm = 0;
  for (let d = 0; d < dims; d++) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    out[d] = ((state >>> 0) / 4294967296) * 2 - 1;
    norm += out[d] * out[d];
  }
  for (let d = 0; d < dims; d++) out[d] /= Math.sqrt(norm);
  return out;
}

if (path !== undefined) {
  const memory = SqliteMemory.open({
    path,
    embeddings: createHashingEmbeddingProvider({ dimensions }),
    settings: { ...DEFAULT_CONFIG.memory, hotCacheSize: 0 },
  });
  for (let from = 0; ; from += chunk) {
    const entries = [];
    for (let i = from; i < from + chunk; i++) {
      entries.push({
        key: `e${i}`,
        content: `entry ${i} word${i} shared text`,
        embedding: vectorOf(i, dimensions),
      });
    }
    await memory.import(entries);
    process.stdout.write(`committed ${from + chunk}\n`);
  }
}
