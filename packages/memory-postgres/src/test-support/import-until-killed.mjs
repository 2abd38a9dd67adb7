// Child process of crash.kill-during-import.test.ts: imports chunks of entries with vectors into
// the schema argv[4] of the database at argv[2], reporting each committed chunk on stdout, until
// the parent kills it. Plain JavaScript over the built package, as a user's process would run it.
import { createHashingEmbeddingProvider, DEFAULT_CONFIG } from "@claw/memory-core";
import { PostgresMemory } from "../../dist/index.js";

const [url, poolMax, schema, chunkArg, dimsArg] = process.argv.slice(2);
const chunk = Number(chunkArg);
const dimensions = Number(dimsArg);

/** A deterministic unit vector per entry index (xorshift). */
function vectorOf(index) {
  let state = (index + 1) * 2654435761;
  const out = new Float32Array(dimensions);
  let norm = 0;
  for (let d = 0; d < dimensions; d++) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    out[d] = ((state >>> 0) / 4294967296) * 2 - 1;
    norm += out[d] * out[d];
  }
  for (let d = 0; d < dimensions; d++) out[d] /= Math.sqrt(norm);
  return out;
}

const memory = await PostgresMemory.open({
  url,
  poolMax: Number(poolMax),
  schema,
  embeddings: createHashingEmbeddingProvider({ dimensions }),
  settings: { ...DEFAULT_CONFIG.memory, hotCacheSize: 0 },
});
for (let from = 0; ; from += chunk) {
  const entries = [];
  for (let i = from; i < from + chunk; i++) {
    entries.push({ key: `e${i}`, content: `entry ${i} word${i} shared text`, embedding: vectorOf(i) });
  }
  await memory.import(entries);
  process.stdout.write(`committed ${from + chunk}\n`);
}
