import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../test-support/temp-memory.js";
import { anisotropicSet } from "./test-support/vector-sets.js";
import { expectCodesOfRows, openIndex, openSetMemory, textOf } from "./test-support/vector-store.js";

describe("vector codes of a bulk write", () => {
  it("are written at its end as its last state left them: rewritten, dropped, rebuilt on the way", async () => {
    const set = anisotropicSet(1400, 32, 5, 41);
    const path = join(tempDir(), "brain.db");
    const memory = openSetMemory(path, set);
    await memory.store("k0", textOf(0));
    await memory.flush();
    const entries: Array<{ key: string; content: string; embedding?: Float32Array }> = [];
    for (let i = 1; i < 1200; i++)
      entries.push({ key: `k${i}`, content: textOf(i), embedding: set.vectors[i] });
    // Later in the same import (after the last rebuild, at 1,024 codes): k1050 written again with another vector (its buffered code replaced),
    // k1100 with new text and no vector (its buffered code dropped until it is embedded), and k0,
    // stored before, with another vector.
    entries.push({ key: "k1050", content: textOf(1300), embedding: set.vectors[1300] });
    entries.push({ key: "k1100", content: textOf(1301) });
    entries.push({ key: "k0", content: textOf(1302), embedding: set.vectors[1302] });
    await memory.import(entries);
    const reader = openIndex(path);
    // Before the deferred embedding of k1100: every row with a vector has its code, k1100 none.
    expect(
      reader.db
        .prepare("SELECT count(*) FROM memory_codes c JOIN memories m USING (rid) WHERE m.key = 'k1100'")
        .pluck()
        .get(),
    ).toBe(0);
    // Rebuilt at 256 and 1,024 codes inside the import; the codes after written at its end.
    expect(expectCodesOfRows(reader, false)).toBe(1199);
    await memory.flush();
    expect(expectCodesOfRows(reader, false)).toBe(1200);
    for (const [i, key] of [
      [1300, "k1050"],
      [1301, "k1100"],
      [1302, "k0"],
    ] as const) {
      const hits = await memory.recall(textOf(i), { mode: "embedding", limit: 1 });
      expect(hits.map((e) => e.key)).toEqual([key]);
    }
  });
});
