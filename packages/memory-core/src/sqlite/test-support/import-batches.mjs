// Child process of backup.while-writing.test.ts: imports `total` entries into the store at argv[2]
// in batches of `batch`, each batch one import() (one transaction), reporting `committed <n>` on
// stdout after each and `done` at the end. A short pause between batches keeps it writing for a
// while, as an agent does. Plain JavaScript over the built package, as a user's process runs it.
import { DEFAULT_CONFIG, SqliteMemory } from "../../../dist/index.js";

const [path, totalArg, batchArg, pauseArg] = process.argv.slice(2);
const total = Number(totalArg);
const batch = Number(batchArg);
const pauseMs = Number(pauseArg ?? "0");

/** The key of entry `i`: sortable, so that a prefix of the writes is a prefix of the keys. */
export function keyOf(i) {
  return `k${String(i).padStart(5, "0")}`;
}

/** The content of entry `i`, about a kilobyte, so that the store spans many pages. */
export function contentOf(i) {
  const words = [];
  for (let w = 0; w < 120; w++) words.push(`w${(i * 31 + w * 7) % 997}`);
  return `entry ${i}: ${words.join(" ")}`;
}

if (path !== undefined) {
  const memory = SqliteMemory.open({ path, settings: { ...DEFAULT_CONFIG.memory, hotCacheSize: 0 } });
  for (let from = 0; from < total; from += batch) {
    const entries = [];
    for (let i = from; i < Math.min(total, from + batch); i++)
      entries.push({ key: keyOf(i), content: contentOf(i) });
    await memory.import(entries);
    process.stdout.write(`committed ${Math.min(total, from + batch)}\n`);
    if (pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }
  await memory.close();
  process.stdout.write("done\n");
}
