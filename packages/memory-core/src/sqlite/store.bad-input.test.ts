import type { Memory, MemoryEntry } from "@claw/memory-api";
import { isMemoryError } from "@claw/memory-api";
import { describe, expect, it } from "vitest";
import { openTestMemory } from "./test-support/temp-memory.js";

/** A store holding one entry, so that "unchanged" is not trivially zero. */
async function seeded(settings: Parameters<typeof openTestMemory>[0] = {}): Promise<Memory> {
  const memory = openTestMemory(settings);
  await memory.store("existing", "An entry that must survive every bad call");
  return memory;
}

/** The call rejects with INVALID_INPUT naming `field`, and the store still holds what it held. */
async function expectInvalid(memory: Memory, field: string, call: () => Promise<unknown>): Promise<void> {
  const before = await memory.count({ namespace: "*" });
  const outcome = await call().then(
    (value) => ({ rejected: false as const, value }),
    (error: unknown) => ({ rejected: true as const, error }),
  );
  expect(outcome.rejected, `expected a rejection naming ${field}`).toBe(true);
  const error = (outcome as { error: unknown }).error;
  expect(isMemoryError(error, "INVALID_INPUT"), String(error)).toBe(true);
  if (!isMemoryError(error)) return;
  expect(error.field).toBe(field);
  expect(error.message.startsWith(`${field}: `), error.message).toBe(true);
  expect(await memory.count({ namespace: "*" })).toBe(before);
}

describe("store: bad keys and contents", () => {
  it("an empty key", async () => {
    const memory = await seeded();
    await expectInvalid(memory, "key", () => memory.store("", "some content"));
  });

  it("a whitespace-only key", async () => {
    const memory = await seeded();
    await expectInvalid(memory, "key", () => memory.store(" \t\n ", "some content"));
  });

  it("an empty content", async () => {
    const memory = await seeded();
    await expectInvalid(memory, "content", () => memory.store("k", ""));
  });

  it("a whitespace-only content", async () => {
    const memory = await seeded();
    await expectInvalid(memory, "content", () => memory.store("k", "   "));
  });

  it("a key that is not a string", async () => {
    const memory = await seeded();
    await expectInvalid(memory, "key", () => memory.store(42 as unknown as string, "some content"));
    await expectInvalid(memory, "key", () => memory.store(null as unknown as string, "some content"));
  });

  it("a content that is not a string", async () => {
    const memory = await seeded();
    await expectInvalid(memory, "content", () => memory.store("k", { text: "x" } as unknown as string));
    await expectInvalid(memory, "content", () => memory.store("k", undefined as unknown as string));
  });

  it("an update with bad content leaves the old content in place", async () => {
    const memory = await seeded();
    await expectInvalid(memory, "content", () => memory.store("existing", ""));
    expect((await memory.get("existing"))?.content).toBe("An entry that must survive every bad call");
  });
});

describe("store: the content size limit counts bytes, not characters", () => {
  it("content over max_content_bytes is refused", async () => {
    const memory = await seeded({ settings: { maxContentBytes: 64 } });
    await expectInvalid(memory, "content", () => memory.store("k", "a".repeat(65)));
  });

  it("exactly 64 bytes of multi-byte UTF-8 is accepted and kept intact", async () => {
    const memory = await seeded({ settings: { maxContentBytes: 64 } });
    const twoByte = "é".repeat(32); // 32 characters, 64 bytes
    const fourByte = "😀".repeat(16); // 32 UTF-16 code units, 64 bytes
    expect(Buffer.byteLength(twoByte, "utf8")).toBe(64);
    expect(Buffer.byteLength(fourByte, "utf8")).toBe(64);

    expect((await memory.store("two", twoByte)).content).toBe(twoByte);
    expect((await memory.store("four", fourByte)).content).toBe(fourByte);
    expect((await memory.get("two"))?.content).toBe(twoByte);
    expect((await memory.get("four"))?.content).toBe(fourByte);
  });

  it("65 bytes in only 33 characters is refused", async () => {
    const memory = await seeded({ settings: { maxContentBytes: 64 } });
    const content = `${"é".repeat(32)}a`;
    expect(content.length).toBe(33);
    await expectInvalid(memory, "content", () => memory.store("k", content));
  });
});

describe("store: bad options", () => {
  it("importance above 1", async () => {
    const memory = await seeded();
    await expectInvalid(memory, "importance", () => memory.store("k", "content", { importance: 1.5 }));
  });

  it("importance NaN", async () => {
    const memory = await seeded();
    await expectInvalid(memory, "importance", () => memory.store("k", "content", { importance: Number.NaN }));
  });

  it("importance below 0", async () => {
    const memory = await seeded();
    await expectInvalid(memory, "importance", () => memory.store("k", "content", { importance: -0.1 }));
  });

  it('namespace "*" (every namespace) is not a place to write to', async () => {
    const memory = await seeded();
    await expectInvalid(memory, "namespace", () => memory.store("k", "content", { namespace: "*" }));
  });

  it("an empty namespace", async () => {
    const memory = await seeded();
    await expectInvalid(memory, "namespace", () => memory.store("k", "content", { namespace: "" }));
  });
});

describe("recall and list: bad options", () => {
  it.each([0, -1, 1.5])("recall limit %s", async (limit) => {
    const memory = await seeded();
    await expectInvalid(memory, "limit", () => memory.recall("entry", { limit }));
  });

  it('recall since "yesterday"', async () => {
    const memory = await seeded();
    await expectInvalid(memory, "since", () => memory.recall("entry", { since: "yesterday" }));
  });

  it("recall until an invalid Date", async () => {
    const memory = await seeded();
    await expectInvalid(memory, "until", () => memory.recall("entry", { until: new Date(Number.NaN) }));
  });

  it("recall categories that are not an array", async () => {
    const memory = await seeded();
    await expectInvalid(memory, "categories", () =>
      memory.recall("entry", { categories: "core" as unknown as string[] }),
    );
  });

  it("recall with a query that is not a string", async () => {
    const memory = await seeded();
    await expectInvalid(memory, "query", () => memory.recall(7 as unknown as string));
  });

  it("list with a negative offset", async () => {
    const memory = await seeded();
    await expectInvalid(memory, "offset", () => memory.list({ offset: -1 }));
  });

  it("list with limit 0", async () => {
    const memory = await seeded();
    await expectInvalid(memory, "limit", () => memory.list({ limit: 0 }));
  });

  it("a huge recall limit is capped at recall_limit_max, not refused", async () => {
    const memory = openTestMemory({ settings: { recallLimitMax: 2 } });
    for (const key of ["a", "b", "c"]) await memory.store(key, `note ${key} about the garden`);

    const recent = await memory.recall("", { limit: 10_000_000 });
    expect(recent).toHaveLength(2);
    const matched = await memory.recall("garden", { limit: 10_000_000 });
    expect(matched).toHaveLength(2);
  });

  it("a huge list limit is capped, not refused", async () => {
    const memory = await seeded();
    await memory.store("second", "Another entry");

    const listed = await memory.list({ limit: 10_000_000 });
    expect(listed.map((e) => e.key).sort()).toEqual(["existing", "second"]);
  });
});

describe("import: bad entries change nothing", () => {
  it("names the entry and field at fault and writes none of the batch", async () => {
    const memory = openTestMemory();
    await expectInvalid(memory, "entries[1].content", () =>
      memory.import([
        { key: "first", content: "A valid first entry" },
        { key: "second", content: "" },
        { key: "third", content: "A valid third entry" },
      ]),
    );
    expect(await memory.count()).toBe(0);
    expect(await memory.get("first")).toBeNull();
  });

  it("keeps the field's own reason after the entry's name, nested fields included", async () => {
    const memory = openTestMemory();
    const bad = {
      key: "b",
      content: "x",
      source: { path: 7, startLine: 1, endLine: 1 },
    } as unknown as MemoryEntry;
    const error = await memory.import([{ key: "a", content: "ok" }, bad]).catch((e: unknown) => e);
    expect(isMemoryError(error, "INVALID_INPUT") && error.field).toBe("entries[1].source.path");
    expect((error as Error).message).toBe("entries[1].source.path: expected a string, got 7");
    expect(await memory.count()).toBe(0);
  });

  it("a bad entry late in an async iterable still writes nothing", async () => {
    const memory = await seeded();
    async function* entries() {
      yield { key: "one", content: "fine" };
      yield { key: "two", content: "fine too" };
      yield { key: "three", content: "bad importance", importance: 2 };
    }
    await expectInvalid(memory, "entries[2].importance", () => memory.import(entries()));
    expect(await memory.get("one")).toBeNull();
  });
});
