// Property-based: whatever a user types, the keyword query is data, never FTS5 syntax.
import Database from "better-sqlite3";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildFtsQuery } from "./fts-query.js";
import { toFtsIndexText } from "./tokenizer.js";

/** Text as users and models send it: any code points, FTS5 and SQL punctuation well represented. */
const hostileText = fc.oneof(
  fc.string({ unit: "grapheme", maxLength: 60 }),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc
    .array(
      fc.constantFrom(
        '"',
        "'",
        "*",
        "^",
        "-",
        "+",
        ":",
        "(",
        ")",
        "{",
        "}",
        "AND",
        "OR",
        "NOT",
        "NEAR",
        ";",
        "--",
        "\\",
        "\u0000",
        " ",
      ),
      { maxLength: 20 },
    )
    .map((parts) => parts.join("")),
);

describe("buildFtsQuery (property)", () => {
  const db = new Database(":memory:");
  db.exec("CREATE VIRTUAL TABLE t USING fts5(body, tokenize = 'unicode61 remove_diacritics 2')");
  const insert = db.prepare("INSERT INTO t(body) VALUES (?)");
  for (const body of [
    "the weekly standup moved to tuesday",
    "我最喜欢的水果是苹果",
    "AND OR NOT near quotes \"'",
  ]) {
    insert.run(toFtsIndexText(body));
  }
  const match = db.prepare("SELECT rowid FROM t WHERE t MATCH ? ORDER BY rank LIMIT 5");

  it("always builds a query FTS5 accepts (or none at all), with and without prefixes", () => {
    fc.assert(
      fc.property(hostileText, fc.boolean(), (text, prefix) => {
        const query = buildFtsQuery(text, { prefix });
        if (query === null) return;
        expect(typeof query).toBe("string");
        expect(() => match.all(query)).not.toThrow();
      }),
      { numRuns: 500 },
    );
  });
});
