import { describe, expect, it } from "vitest";
import { forEachTestDatabase } from "../test-support/test-database.js";
import { openTestMemory, schemaOf } from "../test-support/test-memory.js";

forEachTestDatabase((database) => {
  const keys = (entries: ReadonlyArray<{ key: string }>) => entries.map((e) => e.key);

  describe("full-text search configuration", () => {
    it("'simple' matches words as written; switching to 'english' rebuilds the index with stems", async () => {
      const simple = await openTestMemory(database(), { textSearchConfig: "simple" });
      await simple.store("pet", "The dog runs every morning");
      expect(await simple.recall("running", { mode: "bm25" })).toEqual([]);
      expect(keys(await simple.recall("runs", { mode: "bm25" }))).toEqual(["pet"]);
      await simple.close();

      const english = await openTestMemory(database(), {
        textSearchConfig: "english",
        schema: schemaOf(simple),
      });
      expect(keys(await english.recall("running", { mode: "bm25" }))).toEqual(["pet"]);
      const meta = await database().query(
        `SELECT value FROM "${schemaOf(simple)}".claw_meta WHERE key = 'text_search_config'`,
      );
      expect(meta.rows).toEqual([{ value: "english" }]);
    });

    it("another language's stemmer, e.g. german", async () => {
      const memory = await openTestMemory(database(), { textSearchConfig: "german" });
      await memory.store("haus", "Wir kaufen zwei Häuser in Berlin");
      expect(keys(await memory.recall("Haus", { mode: "bm25" }))).toEqual(["haus"]);
    });

    it("folds case in every script, whatever the database's locale", async () => {
      const memory = await openTestMemory(database());
      await memory.store("cake", "ÉCLAIR AU CHOCOLAT, ΚΑΦΈΣ");
      expect(keys(await memory.recall("éclair", { mode: "bm25" }))).toEqual(["cake"]);
      expect(keys(await memory.recall("καφές", { mode: "bm25" }))).toEqual(["cake"]);
    });

    it("ranks an entry matching more of the query first, and its key counts", async () => {
      const memory = await openTestMemory(database());
      await memory.store("a", "postgres replication notes");
      await memory.store("b", "postgres notes");
      await memory.store("replication-runbook", "steps to follow");
      const hits = await memory.recall("postgres replication", { mode: "bm25" });
      expect(hits[0]?.key).toBe("a");
      expect(keys(hits).sort()).toEqual(["a", "b", "replication-runbook"]);
    });

    it("a session neighbour of a hit is recalled with it", async () => {
      const memory = await openTestMemory(database());
      await memory.store("q", "Which shoes should I buy?", { sessionId: "s", category: "conversation" });
      await memory.store("a", "For walking or running?", { sessionId: "s", category: "conversation" });
      await memory.store("other", "unrelated note");
      expect(keys(await memory.recall("shoes", { mode: "bm25" }))).toEqual(["q", "a"]);
    });

    it("indexes long content up to its first 200 000 characters; LIKE finds the rest", async () => {
      const memory = await openTestMemory(database());
      const filler = "lorem ipsum ".repeat(20_000);
      await memory.store("long", `${filler} zanzibar`);
      expect(await memory.recall("zanzibar", { mode: "bm25" })).toEqual([]);
      expect(keys(await memory.recall("zanzibar"))).toEqual(["long"]);
    });
  });
});
