import type { Memory, TextGenerator } from "@claw/memory-api";
import { describe, expect, it } from "vitest";
import { openWorkspaceMemory } from "../test-support/temp-workspace.js";
import { curate } from "./curate.js";

/** A generator that answers from a script and records the prompts it was given. */
function scripted(...answers: Array<string | ((prompt: string) => string)>) {
  const prompts: string[] = [];
  const generator: TextGenerator = {
    async generate(request) {
      prompts.push(request.prompt);
      const answer = answers[Math.min(prompts.length - 1, answers.length - 1)];
      if (answer === undefined) throw new Error("no scripted answer");
      return typeof answer === "function" ? answer(request.prompt) : answer;
    },
  };
  return { generator, prompts };
}

async function seeded(count = 20): Promise<Memory> {
  const memory = await openWorkspaceMemory();
  await memory.import([
    { key: "tea", content: "The user likes green tea", category: "core" },
    { key: "tea2", content: "User likes green tea a lot", category: "core" },
    { key: "lunch", content: "Had a sandwich for lunch", category: "daily" },
    ...Array.from({ length: count - 3 }, (_, i) => ({
      key: `note${i}`,
      content: `daily note number ${i}`,
      category: "daily",
    })),
  ]);
  return memory;
}

describe("curate", () => {
  it("merges duplicates into a surviving entry and deletes low-value ones", async () => {
    const memory = await seeded();
    const { generator, prompts } = scripted(
      JSON.stringify({
        delete: ["lunch"],
        merge: [{ keys: ["tea", "tea2"], content: "The user likes green tea, a lot" }],
      }),
    );
    const report = await curate(memory, generator);

    expect(report).toMatchObject({
      deleted: ["lunch"],
      merged: [
        {
          keys: ["tea", "tea2"],
          into: "tea",
          content: "The user likes green tea, a lot",
          namespace: "default",
        },
      ],
      totalBefore: 20,
      totalAfter: 18,
      dryRun: false,
      refused: [],
      errors: [],
    });
    expect((await memory.get("tea"))?.content).toBe("The user likes green tea, a lot");
    expect((await memory.get("tea"))?.category).toBe("core");
    expect(await memory.get("tea2")).toBeNull();
    expect(await memory.get("lunch")).toBeNull();
    expect(await memory.count()).toBe(18);
    expect(prompts[0]).toContain('"key":"tea2"');
  });

  it("leaves each change in the entries' history: merged by the curator, deleted by the curator", async () => {
    const memory = await seeded();
    const { generator } = scripted(
      JSON.stringify({
        delete: ["lunch"],
        merge: [{ keys: ["tea", "tea2"], content: "The user likes green tea, a lot" }],
      }),
    );
    await curate(memory, generator);
    const changes = async (key: string) =>
      (await memory.history(key)).map((v) => [v.version, v.action, v.actor, v.deleted, v.content]);
    expect(await changes("tea")).toEqual([
      [2, "merge", "curator", false, "The user likes green tea, a lot"],
      [1, "create", "library", false, "The user likes green tea"],
    ]);
    expect(await changes("tea2")).toEqual([
      [2, "merge", "curator", true, "User likes green tea a lot"],
      [1, "create", "library", false, "User likes green tea a lot"],
    ]);
    expect(await changes("lunch")).toEqual([
      [2, "forget", "curator", true, "Had a sandwich for lunch"],
      [1, "create", "library", false, "Had a sandwich for lunch"],
    ]);
    // What the curator merged away can be brought back.
    expect((await memory.restore("tea2", 1)).content).toBe("User likes green tea a lot");
  });

  it("dry run reports the same and changes nothing", async () => {
    const memory = await seeded();
    const before = await memory.export();
    const { generator } = scripted(
      '{"delete":["lunch"],"merge":[{"keys":["tea","tea2"],"content":"merged"}]}',
    );
    const report = await curate(memory, generator, { dryRun: true });
    expect(report.dryRun).toBe(true);
    expect(report.deleted).toEqual(["lunch"]);
    expect(report.totalAfter).toBe(18);
    expect(await memory.export()).toEqual(before);
  });

  it("survives a hostile generator that asks to delete everything: core refused, the rest capped at 10%", async () => {
    const memory = await seeded(30);
    const everything = (await memory.export()).map((e) => e.key);
    const { generator } = scripted(
      JSON.stringify({ delete: everything, merge: [{ keys: everything, content: "x" }] }),
    );
    const report = await curate(memory, generator);

    expect(report.merged).toEqual([]); // merging 30 entries would remove 29 > cap 3
    expect(report.deleted.length).toBe(3);
    expect(report.deleted.every((k) => k !== "tea" && k !== "tea2")).toBe(true);
    expect(report.refused).toContain("delete tea: core memories are only removed by merging");
    expect(report.refused.filter((r) => r.endsWith("over the deletion cap")).length).toBe(26);
    expect(await memory.count()).toBe(27);
    expect(await memory.get("tea")).not.toBeNull();
  });

  it("honours an explicit maxDeletions", async () => {
    const memory = await seeded();
    const { generator } = scripted('{"delete":["note1","note2","note3"]}');
    const report = await curate(memory, generator, { maxDeletions: 1 });
    expect(report.deleted).toEqual(["note1"]);
    expect(await memory.count()).toBe(19);
  });

  it("ignores unknown keys, keys used twice and malformed items", async () => {
    const memory = await seeded();
    const { generator } = scripted(
      JSON.stringify({
        delete: ["ghost", "note1", 42, "note1"],
        merge: [
          { keys: ["note1", "note2"], content: "two notes" },
          { keys: ["tea"] },
          { keys: ["tea", "nope"], content: "x" },
        ],
      }),
    );
    const report = await curate(memory, generator);
    expect(report.merged.map((m) => m.keys)).toEqual([["note1", "note2"]]);
    expect(report.deleted).toEqual([]);
    expect(report.refused).toEqual([
      "merge [tea, nope]: unknown keys nope",
      "delete ghost: unknown key",
      "delete note1: already in another change",
    ]);
    expect(await memory.count()).toBe(19);
  });

  it("changes nothing and reports an error for a malformed answer", async () => {
    const memory = await seeded();
    for (const answer of ["Sure! I would delete lunch.", "[]", '{"delete": "lunch"}']) {
      const report = await curate(memory, scripted(answer).generator);
      expect(report.errors.length).toBe(1);
      expect(report.deleted).toEqual([]);
    }
    expect(await memory.count()).toBe(20);
  });

  it("accepts an answer wrapped in a json code fence", async () => {
    const memory = await seeded();
    const report = await curate(memory, scripted('```json\n{"delete":["lunch"]}\n```').generator);
    expect(report.deleted).toEqual(["lunch"]);
  });

  it("asks page by page and keeps namespaces apart", async () => {
    const memory = await seeded(5);
    await memory.import([
      { key: "tea", content: "tenant likes coffee", category: "core", namespace: "tenant" },
      { key: "x", content: "tenant daily", category: "daily", namespace: "tenant" },
    ]);
    const { generator, prompts } = scripted('{"delete":[]}');
    const report = await curate(memory, generator, { pageSize: 2 });
    expect(prompts.length).toBe(4); // default: 5 entries in pages of 2 → 3; tenant: 2 → 1
    expect(prompts.every((p) => !(p.includes("tenant likes") && p.includes("green tea")))).toBe(true);
    expect(report.totalBefore).toBe(7);
  });

  it("leaves superseded and conversation entries out", async () => {
    const memory = await openWorkspaceMemory();
    await memory.import([
      { key: "old", content: "[SUPERSEDED by 'new'] old", category: "core", supersededBy: "new" },
      { key: "chat", content: "chatter", category: "conversation" },
      { key: "new", content: "new fact", category: "core" },
    ]);
    const { generator, prompts } = scripted('{"delete":["old","chat"]}');
    const report = await curate(memory, generator, { maxDeletions: 5 });
    expect(report.totalBefore).toBe(1);
    expect(report.refused).toEqual(["delete old: unknown key", "delete chat: unknown key"]);
    expect(prompts[0]).not.toContain("chatter");
  });

  it("reports a failing generator without changing anything", async () => {
    const memory = await seeded();
    const failing: TextGenerator = {
      generate: async () => {
        throw new Error("model overloaded");
      },
    };
    const report = await curate(memory, failing);
    expect(report.errors).toEqual(["the generator failed: model overloaded"]);
    expect(await memory.count()).toBe(20);
  });
});
