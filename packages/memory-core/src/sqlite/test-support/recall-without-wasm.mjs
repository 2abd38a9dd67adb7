// Child process of vectors.no-wasm.test.ts, run with `node --jitless` (no WebAssembly at all):
// stores entries with vectors, recalls by vector, and prints what status() and the logger said.
// Plain JavaScript over the built package, so that it runs as a user's process would.
import { createHashingEmbeddingProvider, DEFAULT_CONFIG, SqliteMemory } from "../../../dist/index.js";

const [path, countArg] = process.argv.slice(2);
const count = Number(countArg);
const warnings = [];
const logger = {
  debug() {},
  info() {},
  warn: (message) => warnings.push(message),
  error: (message) => warnings.push(message),
};
const memory = SqliteMemory.open({
  path,
  embeddings: createHashingEmbeddingProvider({ dimensions: 64 }),
  settings: DEFAULT_CONFIG.memory,
  logger,
});
const words = [
  "river",
  "mountain",
  "garden",
  "violin",
  "harbour",
  "lantern",
  "meadow",
  "copper",
  "orchid",
  "glacier",
];
const textOf = (i) =>
  `${words[i % 10]} ${words[Math.floor(i / 10) % 10]} ${words[Math.floor(i / 100) % 10]} note ${i}`;
await memory.import(Array.from({ length: count }, (_, i) => ({ key: `k${i}`, content: textOf(i) })));
await memory.flush();
const hits = await memory.recall(textOf(1234), { mode: "embedding", limit: 3 });
const status = await memory.status();
await memory.close();
process.stdout.write(
  `${JSON.stringify({ wasm: typeof WebAssembly, keys: hits.map((h) => h.key), statusWarnings: status.warnings ?? [], logged: warnings })}\n`,
);
