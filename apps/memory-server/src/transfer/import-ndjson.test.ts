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
