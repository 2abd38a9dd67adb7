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

    it("a store indexed before contexts is re-indexed with them when opened", async () => {
      const first = await openTestMemory(database());
      await first.import([
        {
          key: "q",
          content: "Which sport did you pick up?",
          sessionId: "s",
          createdAt: "2023-05-08T10:00:00Z",
        },
        { key: "a", content: "Bouldering, twice a week.", sessionId: "s", createdAt: "2023-05-08T10:01:00Z" },
      ]);
      await first.close();
      const schema = schemaOf(first);
      // As an older version left it: key and text only, and no content version.
      await database().query(
        `UPDATE "${schema}".claw_memories SET fts = to_tsvector('simple', key) || to_tsvector('simple', content)`,
      );
      await database().query(`DELETE FROM "${schema}".claw_meta WHERE key = 'fts_content_version'`);
      const settings = { sessionContextWeight: 0 };
      const upgraded = await openTestMemory(database(), { schema, settings });
      expect(keys(await upgraded.recall("which sport", { mode: "bm25" }))).toEqual(["q", "a"]);
      expect(keys(await upgraded.recall("2023-05-08", { mode: "bm25" })).sort()).toEqual(["a", "q"]);
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
