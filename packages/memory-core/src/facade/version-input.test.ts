// replaceHistory()'s input checks (validateVersions, as the CLI runs them on a backup's history
// lines), which lines are history lines, and replaceHistory() on SQLite: UNAVAILABLE, its backup
// being the database file with the history in it.
import type { MemoryVersion } from "@claw/memory-api";
import { describe, expect, it } from "vitest";
import { DEFAULT_CONFIG } from "../config/config-schema.js";
import { openTempSqliteMemory } from "../testkit/temp-memory.js";
import { isHistoryLine, validateVersions } from "./version-input.js";

const settings = DEFAULT_CONFIG.memory;

function version(overrides: Partial<Record<keyof MemoryVersion, unknown>> = {}): Record<string, unknown> {
  return {
    version: 1,
    at: "2024-05-01T10:00:00Z",
    action: "create",
    actor: "cli",
    current: false,
    deleted: false,
    id: "id-1",
    key: "k",
    namespace: "default",
    content: "hello",
    category: "core",
    ...overrides,
  };
}

/** The problems as [index, message]. */
function problemsOf(versions: unknown[]): Array<[number, string]> {
  return validateVersions(versions, settings).map(({ index, error }) => [index, error.message]);
}

describe("validateVersions", () => {
  it("accepts a key's history as history() lists it, in any order", () => {
    const history = [
      version({ version: 3, action: "restore", current: true, at: "2024-05-03T10:00:00.000Z" }),
      version({
        version: 2,
        action: "forget",
        deleted: true,
        metadata: { a: 1 },
        expiresAt: "2030-01-01T00:00:00Z",
      }),
      version({
        sessionId: "s1",
        importance: 0.4,
        supersededBy: "x",
        context: "c",
        source: { path: "a.md", startLine: 1, endLine: 2 },
      }),
      version({ key: "other", namespace: "tenant", version: 7, current: true }),
    ];
    expect(problemsOf(history)).toEqual([]);
  });

  it("names the first bad field of each bad version, by index", () => {
    expect(
      problemsOf([
        version({ version: 1.5 }),
        version({ key: "b", at: "not a date" }),
        version({ key: "c", action: "edit" }),
        version({ key: "d", actor: "" }),
        version({ key: "e", current: 1 }),
        version({ key: "f", current: true, deleted: true }),
        version({ key: "g", content: "" }),
        version({ key: "h", namespace: "*" }),
        version({ key: "i", importance: 2 }),
        version({ key: "j", source: { path: "a.md", startLine: 0, endLine: 1 } }),
        version({ key: "k2", metadata: [1] }),
        version({ key: "l", id: undefined }),
        "nope",
      ]),
    ).toEqual([
      [0, "version: expected a whole number from 1 to 2147483647"],
      [1, expect.stringMatching(/^at: expected an RFC 3339 date/)],
      [2, expect.stringMatching(/^action: expected one of create, update/)],
      [3, "actor: must not be empty"],
      [4, "current: expected true or false"],
      [5, "deleted: a tombstone cannot be the current version"],
      [6, "content: must not be empty"],
      [7, 'namespace: "*" is not allowed here'],
      [8, expect.stringMatching(/^importance: expected a number from 0 to 1/)],
      [9, expect.stringMatching(/^source: expected whole-number startLine/)],
      [10, "metadata: expected a JSON object"],
      [11, expect.stringMatching(/^id: expected a string/)],
      [12, "history: expected an object (a version as history() returns it)"],
    ]);
  });

  it("checks each key's history: no number twice, one current version, the newest", () => {
    expect(
      problemsOf([
        version({ version: 1 }),
        version({ version: 1, content: "again" }),
        version({ version: 2, current: true }),
        version({ version: 3, current: true }),
        // Another key may use the same numbers.
        version({ key: "other", version: 1, current: true }),
        version({ key: "third", version: 1, current: true }),
        version({ key: "third", version: 2, action: "forget", deleted: true }),
      ]),
    ).toEqual([
      [1, 'version: version 1 of "k" in namespace "default" is given twice'],
      [2, 'current: version 2 of "k" in namespace "default" is marked current, but version 3 is newer'],
      [3, 'current: versions 2 and 3 of "k" in namespace "default" are both marked current'],
      [5, 'current: version 1 of "third" in namespace "default" is marked current, but version 2 is newer'],
    ]);
  });
});

describe("isHistoryLine", () => {
  it("is an object whose only field is history", () => {
    expect(isHistoryLine({ history: version() })).toBe(true);
    expect(isHistoryLine({ history: version(), key: "k" })).toBe(false);
    expect(isHistoryLine({ key: "k", content: "x" })).toBe(false);
    expect(isHistoryLine([{ history: {} }])).toBe(false);
    expect(isHistoryLine(null)).toBe(false);
    expect(isHistoryLine("history")).toBe(false);
  });
});

describe("replaceHistory on SQLite", () => {
  it("is UNAVAILABLE, and changes nothing", async () => {
    const memory = openTempSqliteMemory();
    await memory.store("k", "first");
    const before = await memory.history("k");
    const error = await memory
      .replaceHistory([{ ...before[0], actor: "elsewhere" } as MemoryVersion])
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "UNAVAILABLE" });
    expect((error as Error).message).toContain("a SQLite backup holds it already");
    expect(await memory.history("k")).toEqual(before);
  });

  it("is UNAVAILABLE once the memory is closed, as every call", async () => {
    const memory = openTempSqliteMemory();
    await memory.close();
    await expect(memory.replaceHistory([])).rejects.toMatchObject({
      code: "UNAVAILABLE",
      message: "this memory is closed",
    });
  });
});
