import { DEFAULT_CONFIG } from "@claw/memory-core";
import { describe, expect, it } from "vitest";
import { openMemory } from "../test-support/server-harness.js";
import { type ImportNdjsonOptions, importNdjson } from "./import-ndjson.js";

const options: ImportNdjsonOptions = {
  settings: DEFAULT_CONFIG.memory,
  maxLineBytes: 1024,
  chunkSize: 2,
  errorsReported: 2,
  defaultNamespace: "default",
  mayUse: () => true,
};

describe("importNdjson", () => {
  it("reports the first bad lines in line order, counts them all, and says when it stopped listing", async () => {
    const memory = await openMemory();
    const text = ['{"key":"a","content":"1"}', "[]", '{"key":"b","content":""}', "nope", "7", ""].join("\n");
    const report = await importNdjson(memory, [text], options);
    expect(report).toEqual({
      imported: 1,
      accepted: 1,
      rejected: 4,
      errors: [
        { line: 2, code: "INVALID_INPUT", message: "line: expected a JSON object (one entry per line)" },
        { line: 3, code: "INVALID_INPUT", message: "content: must not be empty" },
      ],
      errorsTruncated: true,
      dryRun: false,
    });
  });

  it("skips the history lines of a PostgreSQL backup, counted, and imports its entries", async () => {
    const memory = await openMemory();
    const version = { version: 1, at: "2024-05-01T10:00:00.000Z", action: "create", actor: "cli" };
    const entry = { id: "id-k", key: "k", content: "from a backup", namespace: "default", category: "core" };
    const text = [
      JSON.stringify(entry),
      JSON.stringify({ history: { ...version, current: true, deleted: false, ...entry } }),
      // An object with more than the one field is no history line: an entry, refused as one.
      JSON.stringify({ history: {}, note: "not a history line" }),
    ].join("\n");
    expect(await importNdjson(memory, [text], options)).toEqual({
      imported: 1,
      accepted: 1,
      rejected: 1,
      errors: [
        { line: 3, code: "INVALID_INPUT", message: expect.stringContaining("key: expected a string") },
      ],
      errorsTruncated: false,
      dryRun: false,
      historySkipped: 1,
    });
    expect((await memory.get("k"))?.content).toBe("from a backup");
  });

  it("keeps existing entries with onConflict skip, and replaces them by default", async () => {
    const memory = await openMemory();
    await memory.store("k", "original");
    const line = '{"key":"k","content":"imported"}\n';
    await importNdjson(memory, [line], { ...options, onConflict: "skip" });
    expect((await memory.get("k"))?.content).toBe("original");
    await importNdjson(memory, [line], options);
    expect((await memory.get("k"))?.content).toBe("imported");
  });

  it("puts lines without a namespace into the default one it is given", async () => {
    const memory = await openMemory();
    await importNdjson(
      memory,
      ['{"key":"k","content":"v"}\n{"key":"j","content":"w","namespace":"other"}\n'],
      {
        ...options,
        defaultNamespace: "tenant-a",
      },
    );
    expect(await memory.count({ namespace: "tenant-a" })).toBe(1);
    expect(await memory.count({ namespace: "other" })).toBe(1);
  });
});
