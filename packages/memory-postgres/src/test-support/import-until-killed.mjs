// Child process of crash.kill-during-import.test.ts: imports chunks of entries with vectors into
// the schema argv[4] of the database at argv[2], reporting each committed chunk on stdout, until
// the parent kills it. Plain JavaScript over the built package, as a user's process would run it.
import { createHashingEmbeddingProvider, DEFAULT_CONFIG } from "@claw/memory-core";
import { PostgresMemory } from "../../dist/index.js";

const [url, poolMax, schema, chunkArg, dimsArg] = process.argv.slice(2);
const chunk = Number(chunkArg);
const dimensions = Number(dimsArg);

const provider = createHashingEmbeddingProvider({ dimensions });
const memory = await PostgresMemory.open({
  url,
  poolMax: Number(poolMax),
  schema,
  embeddings: provider,
  settings: { ...DEFAULT_CONFIG.memory, hotCacheSize: 0 },
});
for (let from = 0; ; from += chunk) {
  const contents = Array.from({ length: chunk }, (_, j) => `entry ${from + j} word${from + j} shared text`);
  // Entries that bring their vectors, as an export does.
  const vectors = await provider.embed(contents);
  await memory.import(
    contents.map((content, j) => ({ key: `e${from + j}`, content, embedding: vectors[j] })),
  );
  process.stdout.write(`committed ${from + chunk}\n`);
}
