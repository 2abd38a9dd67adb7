import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { TextGenerator } from "@claw/memory-api";
import { describe, expect, it } from "vitest";
import { DAYS, writeFixtureWorkspace } from "../test-support/fixture-workspace.js";
import {
  openIndex,
  openMemory,
  recordingLogger,
  tempDir,
  writeFiles,
} from "../test-support/temp-workspace.js";
import type { WorkspaceIndexOptions } from "../workspace-options.js";

async function setUp(options: WorkspaceIndexOptions = {}) {
  const dir = tempDir();
  writeFixtureWorkspace(dir);
  const memory = await openMemory(dir);
  const index = openIndex(memory, dir, options);
  return { dir, memory, index, page: (path: string) => readFileSync(join(dir, path), "utf8") };
}

describe("reflect", () => {
  it("writes an entity page per @entity and bank/opinions.md from the Retain facts", async () => {
    const { dir, index, page } = await setUp();
    const report = await index.reflect();

    expect(report).toMatchObject({ facts: 8, entities: 4, opinions: 2, unchanged: [] });
    expect(report.written.sort()).toEqual([
      "bank/entities/Alice.md",
      "bank/entities/Bob.md",
      "bank/entities/TheCastle.md",
      "bank/entities/张三.md",
      "bank/opinions.md",
    ]);
    expect(readdirSync(join(dir, "bank/entities")).sort()).toEqual([
      "Alice.md",
      "Bob.md",
      "TheCastle.md",
      "张三.md",
    ]);
    const recent = `memory/${DAYS.recent}.md`;
    expect(page("bank/entities/Alice.md")).toMatch(
      /^# Alice\n\n<!-- claw-memory:reflect:begin digest=[0-9a-f]{16} -->\n/,
    );
    expect(page("bank/entities/Alice.md")).toContain(
      [
        `- Facts: 2 (latest ${DAYS.recent})`,
        "- Opinions: 0",
        "",
        "## Facts",
        "",
        `- ${DAYS.recent} · experience · I gave a talk about memory indexes with @Alice ([${recent}#L7](../../${recent}#L7))`,
        `- ${DAYS.recent} · world · @Alice works at Acme on warelay ([${recent}#L6](../../${recent}#L6))`,
        "<!-- claw-memory:reflect:end -->",
      ].join("\n"),
    );
    const old = `memory/${DAYS.old}.md`;
    expect(page("bank/opinions.md")).toContain(
      [
        "## @Bob prefers Rust for services",
        "",
        "- Confidence: 0.82 (stated 0.80; 1 supporting, 0 contradicting)",
        `- Last updated: ${DAYS.recent}`,
        "- Entities: Bob",
        `- Stated: ${DAYS.old} opinion: @Bob prefers Rust for services (c=0.8) ([${old}#L7](../${old}#L7))`,
        "- Supporting:",
        `  - ${DAYS.recent} opinion: @Bob prefers Rust for services (c=0.6) ([${recent}#L8](../${recent}#L8)) → 0.82`,
      ].join("\n"),
    );
    expect(page("bank/opinions.md")).toContain(
      "## @张三 喜欢 PostgreSQL\n\n- Confidence: 0.70 (stated 0.70;",
    );
    expect(page("bank/entities/张三.md")).toContain("- Opinions: 1");
    expect(report.sync).toMatchObject({ added: 5, files: 11 });
  });

  it("makes the pages it writes searchable", async () => {
    const { index } = await setUp();
    await index.reflect();
    const hits = await index.search("Confidence stated supporting", { limit: 3 });
    expect(hits[0]?.path).toBe("bank/opinions.md");
    expect(hits[0]?.category).toBe("core");
  });

  it("writes nothing when run again on the same facts", async () => {
    const { dir, index } = await setUp();
    await index.reflect();
    const pages = readdirSync(join(dir, "bank/entities")).map((n) =>
      readFileSync(join(dir, "bank/entities", n), "utf8"),
    );

    const again = await index.reflect();

    expect(again.written).toEqual([]);
    expect(again.unchanged).toHaveLength(5);
    expect(again.sync).toMatchObject({ added: 0, updated: 0, entriesWritten: 0 });
    expect(
      readdirSync(join(dir, "bank/entities")).map((n) => readFileSync(join(dir, "bank/entities", n), "utf8")),
    ).toEqual(pages);
  });

  it("keeps the user's edits outside the generated block and updates the block with new facts", async () => {
    const { dir, index, page } = await setUp();
    await index.reflect();
    const edited = `# Alice (colleague)\n\nMet her at RustConf.\n\n${page("bank/entities/Alice.md").split("\n").slice(2).join("\n")}\nMore notes by hand.\n`;
    writeFileSync(join(dir, "bank/entities/Alice.md"), edited);
    writeFiles(dir, { [`memory/${DAYS.chinese}-extra.md`]: "## Retain\n- W @Alice joined Globex\n" });

    const report = await index.reflect();

    expect(report.written).toEqual(["bank/entities/Alice.md"]);
    const alice = page("bank/entities/Alice.md");
    expect(
      alice.startsWith("# Alice (colleague)\n\nMet her at RustConf.\n\n<!-- claw-memory:reflect:begin"),
    ).toBe(true);
    expect(alice.endsWith("<!-- claw-memory:reflect:end -->\n\nMore notes by hand.\n")).toBe(true);
    expect(alice).toContain(`- ${DAYS.chinese} · world · @Alice joined Globex`);
    expect(alice).toContain("- Facts: 3");
  });

  it("rewrites only the pages of entities with facts since the given time", async () => {
    const { index } = await setUp();
    const report = await index.reflect({ since: "7d" });
    expect(report.written.sort()).toEqual([
      "bank/entities/Alice.md",
      "bank/entities/Bob.md",
      "bank/entities/张三.md",
      "bank/opinions.md",
    ]);
  });

  it("asks the generator for a summary when a page changes, and writes the page without one when it fails", async () => {
    const prompts: string[] = [];
    const generator: TextGenerator = {
      async generate(request) {
        prompts.push(request.prompt);
        if (request.prompt.startsWith("Entity: Bob")) throw new Error("model overloaded");
        return "  Alice works at Acme\non warelay.  ";
      },
    };
    const logger = recordingLogger();
    const { index, page } = await setUp({ generator, logger });

    await index.reflect();
    await index.reflect();

    expect(prompts.filter((p) => p.startsWith("Entity: Alice"))).toHaveLength(1);
    expect(page("bank/entities/Alice.md")).toContain(
      "- Opinions: 0\n\n## Summary\n\nAlice works at Acme on warelay.\n\n## Facts",
    );
    expect(page("bank/entities/Bob.md")).not.toContain("## Summary");
    expect(logger.lines).toContain(
      "warn: reflect: the generator failed; the page is written without a summary",
    );
  });

  it("rejects a malformed since with INVALID_INPUT", async () => {
    const { index } = await setUp();
    await expect(index.reflect({ since: "last tuesday" })).rejects.toMatchObject({
      code: "INVALID_INPUT",
      message:
        'since: expected an age ("7d", "12h", "2w"), a date (2026-11-01) or an RFC 3339 timestamp, got "last tuesday"',
    });
  });
});

describe("entitySummary", () => {
  it("returns an entity's facts and opinions, newest first, matching the name without case or @", async () => {
    const { index } = await setUp();
    await index.sync();

    const bob = await index.entitySummary("@bob");
    expect(bob.name).toBe("bob");
    expect(bob.facts).toEqual([]);
    expect(bob.opinions.map((o) => [o.date, o.text, o.confidence])).toEqual([
      [DAYS.recent, "@Bob prefers Rust for services", 0.6],
      [DAYS.old, "@Bob prefers Rust for services", 0.8],
    ]);
    expect(bob.opinions[0]).toMatchObject({
      path: `memory/${DAYS.recent}.md`,
      startLine: 8,
      kind: "opinion",
    });

    const alice = await index.entitySummary("Alice");
    expect(alice.facts.map((f) => [f.kind, f.startLine])).toEqual([
      ["experience", 7],
      ["world", 6],
    ]);

    const zhang = await index.entitySummary("张三");
    expect(zhang.facts.map((f) => f.text)).toEqual(["@张三 在 杭州 工作"]);
    expect(zhang.opinions.map((f) => f.text)).toEqual(["@张三 喜欢 PostgreSQL"]);

    expect(await index.entitySummary("Nobody")).toEqual({ name: "Nobody", facts: [], opinions: [] });
    await expect(index.entitySummary(" @ ")).rejects.toMatchObject({ code: "INVALID_INPUT" });
  });
});
