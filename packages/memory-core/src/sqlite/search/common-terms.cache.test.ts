import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { createStatementCache } from "../schema/statement-cache.js";
import { openTestMemory, tempDir } from "../test-support/temp-memory.js";
import { planTerms } from "./common-terms.js";

const entries = (from: number, count: number, words: string) =>
  Array.from({ length: count }, (_, i) => ({ key: `e-${from + i}`, content: `${words} filler${from + i}` }));

describe("document counts a connection remembers for its plans", () => {
  it("are reused while the store grows a little and read again once it grew by 1,000 entries", async () => {
    const path = join(tempDir(), "brain.db");
    const memory = openTestMemory({ path });
    // 2,000 entries; "projects" in 1,000 of them, "zebra" in 3.
    await memory.import([
      ...entries(0, 1000, "projects"),
      ...entries(1000, 997, "notes"),
      ...entries(1997, 3, "zebra"),
    ]);
    const db = new Database(path, { readonly: true });
    try {
      const statements = createStatementCache(db);
      const plan = () => planTerms(statements, ["projects", "zebra"], 1100);
      expect(plan().dropped).toEqual([]);
      // 500 more "zebra" entries: within the tolerance, the remembered count (3) still plans.
      await memory.import(entries(2000, 500, "zebra"));
      expect(plan()).toMatchObject({ dropped: [], newestRowid: 2500 });
      // 1,000 more: read again (1,503 entries hold "zebra" now), and it leaves the MATCH.
      await memory.import(entries(2500, 1000, "zebra"));
      expect(plan()).toMatchObject({ kept: ["projects"], dropped: ["zebra"], newestRowid: 3500 });
    } finally {
      db.close();
    }
  });
});
