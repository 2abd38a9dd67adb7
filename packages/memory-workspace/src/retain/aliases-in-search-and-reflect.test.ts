import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { day, openIndex, openMemory, tempDir, writeFiles } from "../test-support/temp-workspace.js";

const FIRST = day(-2);
const SECOND = day(-1);
const PETER_PAGE = "# Peter\n\nMaintainer of warelay.\naliases: Pete, @彼得\n";

/** Facts about Peter under three names, one about Alice, and Peter's page unless told otherwise. */
async function setUp(peterPage: string | null = PETER_PAGE) {
  const dir = tempDir();
  writeFiles(dir, {
    [`memory/${FIRST}.md`]: [
      "## Retain",
      "- W @Peter maintains the relay",
      "- O(c=0.6) @Peter prefers Swift for tools",
      "- W @Alice reviewed the relay",
      "",
    ].join("\n"),
    [`memory/${SECOND}.md`]: [
      "## Retain",
      "- B I debugged the relay with @Pete",
      "- W @彼得 fixed the relay in Vienna",
      "- O(c=0.6) @Pete prefers Swift for tools",
      "",
    ].join("\n"),
  });
  if (peterPage !== null) writeFiles(dir, { "bank/entities/Peter.md": peterPage });
  const memory = await openMemory(dir);
  const index = openIndex(memory, dir);
  await index.sync();
  const page = (path: string) => readFileSync(join(dir, path), "utf8");
  return { dir, index, page };
}

const fact = (date: string, line: number) => `fact:memory/${date}.md#L${line}`;
const PETER_FACTS = [fact(FIRST, 2), fact(SECOND, 2), fact(SECOND, 3)];

describe("entity aliases in search, entitySummary and reflect", () => {
  it("search by an alias finds the canonical name's facts, and the other way round", async () => {
    const { index } = await setUp();
    const relayFacts = async (entity: string) =>
      (await index.search("relay", { entity, limit: 20 }))
        .filter((h) => h.origin === "fact")
        .map((h) => h.key)
        .sort();

    expect(await relayFacts("Pete")).toEqual(PETER_FACTS);
    expect(await relayFacts("@peter")).toEqual(PETER_FACTS);
    expect(await relayFacts("彼得")).toEqual(PETER_FACTS);
    expect(await relayFacts("Alice")).toEqual([fact(FIRST, 4)]);
    const hit = (await index.search("Vienna", { entity: "Peter" }))[0];
    expect(hit?.entities).toEqual(["彼得"]);
  });

  it("entitySummary of an alias summarises the canonical entity under all its names", async () => {
    const { index } = await setUp();
    const summary = await index.entitySummary("@pete");

    expect(summary.name).toBe("Peter");
    expect(summary.facts.map((f) => [f.date, f.text])).toEqual([
      [SECOND, "@彼得 fixed the relay in Vienna"],
      [SECOND, "I debugged the relay with @Pete"],
      [FIRST, "@Peter maintains the relay"],
    ]);
    expect(summary.opinions.map((f) => f.key)).toEqual([fact(SECOND, 4), fact(FIRST, 3)]);
    expect((await index.entitySummary("Alice")).facts.map((f) => f.key)).toEqual([fact(FIRST, 4)]);
  });

  it("reflect puts an alias's facts on the canonical page and keeps its aliases line", async () => {
    const { dir, index, page } = await setUp();
    const report = await index.reflect();

    expect(report.written.sort()).toEqual([
      "bank/entities/Alice.md",
      "bank/entities/Peter.md",
      "bank/opinions.md",
    ]);
    expect(report.entities).toBe(2);
    expect(report.opinions).toBe(1);
    expect(existsSync(join(dir, "bank/entities/Pete.md"))).toBe(false);
    expect(existsSync(join(dir, "bank/entities/彼得.md"))).toBe(false);
    const peter = page("bank/entities/Peter.md");
    expect(peter.startsWith(`${PETER_PAGE}\n<!-- claw-memory:reflect:begin`)).toBe(true);
    expect(peter).toContain(
      [
        `- Facts: 5 (latest ${SECOND})`,
        "- Opinions: 1",
        "",
        "## Facts",
        "",
        `- ${SECOND} · opinion · @Pete prefers Swift for tools`,
      ].join("\n"),
    );
    expect(peter).toContain(`- ${FIRST} · world · @Peter maintains the relay`);
    // The opinion stated about @Peter is confirmed by the one about @Pete: the same entity.
    expect(page("bank/opinions.md")).toContain(
      "- Confidence: 0.64 (stated 0.60; 1 supporting, 0 contradicting)",
    );

    const again = await index.reflect();
    expect(again.written).toEqual([]);
    expect(page("bank/entities/Peter.md")).toBe(peter);
    expect(await index.entitySummary("Pete")).toMatchObject({ name: "Peter" });
  });

  it("keeps separate pages for names without aliases", async () => {
    const { dir, index } = await setUp(null);
    const report = await index.reflect();

    expect(report.written.sort()).toEqual([
      "bank/entities/Alice.md",
      "bank/entities/Pete.md",
      "bank/entities/Peter.md",
      "bank/entities/彼得.md",
      "bank/opinions.md",
    ]);
    expect(report.opinions).toBe(2);
    expect(readFileSync(join(dir, "bank/entities/Pete.md"), "utf8")).toMatch(/^# Pete\n/);
    expect((await index.entitySummary("Pete")).facts.map((f) => f.key)).toEqual([fact(SECOND, 2)]);
  });

  it("honours an alias added to a page after the first search, without a sync", async () => {
    const { dir, index } = await setUp("# Peter\n");
    const peteFacts = async () =>
      (await index.search("relay", { entity: "Pete", kind: "world", limit: 10 })).map((h) => h.key).sort();
    expect(await peteFacts()).toEqual([]);
    expect((await index.entitySummary("Pete")).facts.map((f) => f.key)).toEqual([fact(SECOND, 2)]);

    writeFiles(dir, { "bank/entities/Peter.md": "---\naliases:\n  - Pete\n  - 彼得\n---\n# Peter\n" });

    expect(await peteFacts()).toEqual([fact(FIRST, 2), fact(SECOND, 3)]);
    expect((await index.entitySummary("Pete")).facts).toHaveLength(3);
    expect((await index.reflect()).written).not.toContain("bank/entities/Pete.md");
  });

  it("still refuses an empty entity name with INVALID_INPUT naming the field", async () => {
    const { index } = await setUp();
    await expect(index.search("relay", { entity: " @ " })).rejects.toMatchObject({
      code: "INVALID_INPUT",
      field: "entity",
    });
    await expect(index.entitySummary("")).rejects.toMatchObject({ code: "INVALID_INPUT", field: "name" });
  });
});
