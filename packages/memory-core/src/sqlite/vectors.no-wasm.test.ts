import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { createHashingEmbeddingProvider } from "../embedding/hashing-embedding-provider.js";
import { NO_SIMD_WARNING } from "./open-store.js";
import { openTestMemory, tempDir } from "./test-support/temp-memory.js";

const here = dirname(fileURLToPath(import.meta.url));
const CHILD = join(here, "test-support", "recall-without-wasm.mjs");
/** More than the pre-filter's fewest candidates (1000): the codes are scanned. */
const ENTRIES = 3000;

interface ChildReport {
  wasm: string;
  keys: string[];
  statusWarnings: string[];
  logged: string[];
}

describe("vector search without WebAssembly", () => {
  it("scans the codes in JavaScript, finds the same entry, and says so once in status() and the log", async () => {
    // The child runs the built package, as a user's process would; --jitless leaves no WebAssembly.
    expect(existsSync(join(here, "..", "..", "dist", "index.js"))).toBe(true);
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ["--jitless", CHILD, join(tempDir(), "brain.db"), String(ENTRIES)],
      { encoding: "utf8" },
    );
    const report = JSON.parse(stdout) as ChildReport;
    expect(report.wasm).toBe("undefined");
    expect(report.keys[0]).toBe("k1234");
    expect(report.statusWarnings).toContain(NO_SIMD_WARNING);
    expect(report.logged.filter((line) => line === NO_SIMD_WARNING)).toHaveLength(1);
  });

  it("says nothing of it where WebAssembly SIMD runs", async () => {
    const memory = openTestMemory({ embeddings: createHashingEmbeddingProvider({ dimensions: 64 }) });
    await memory.store("k", "river mountain");
    expect((await memory.status()).warnings ?? []).not.toContain(NO_SIMD_WARNING);
  });
});
