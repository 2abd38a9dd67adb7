import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { flattenIds, loadBeamDataset, parseBeamChat, parseTimeAnchor } from "./beam-loader.js";

const FIXTURE = new URL("./__fixtures__/beam-tiny", import.meta.url).pathname;

describe("loadBeamDataset on the tiny fixture", () => {
  it("reads one turn per message, a session per batch, dated by the batch's time anchor", async () => {
    const [chat] = await loadBeamDataset(FIXTURE);
    expect(chat?.id).toBe("beam-1");
    expect(chat?.turns.map((t) => [t.id, t.session, t.speaker, t.timestamp])).toEqual([
      ["0", "batch_1", "user", "2024-03-15T00:00:00Z"],
      ["1", "batch_1", "assistant", "2024-03-15T00:00:00Z"],
      ["2", "batch_1", "user", "2024-03-15T00:00:00Z"],
      ["3", "batch_1", "assistant", "2024-03-15T00:00:00Z"],
      ["4", "batch_2", "user", "2024-04-02T00:00:00Z"],
      ["5", "batch_2", "assistant", "2024-04-02T00:00:00Z"],
    ]);
    expect(chat?.turns[2]?.text).toBe("My database is PostgreSQL 15 and I cache sessions in Redis.");
  });

  it("flattens every shape of evidence, drops unknown ids and keeps abstention without evidence", async () => {
    const [chat] = await loadBeamDataset(FIXTURE);
    expect(chat?.questions.map((q) => [q.category, q.evidence])).toEqual([
      ["abstention", []],
      ["information_extraction", ["2"]],
      ["knowledge_update", ["0", "4"]],
      ["temporal_reasoning", ["0", "4"]],
    ]);
    expect(chat?.droppedEvidence).toEqual(["99"]);
    expect(chat?.questions[2]?.answer).toBe("May 14");
  });
});

describe("BEAM parsing", () => {
  it("reads time anchors as UTC dates and refuses impossible ones", () => {
    expect(parseTimeAnchor("January-05-2024")).toBe("2024-01-05T00:00:00Z");
    expect(parseTimeAnchor("February-30-2024")).toBeNull();
    expect(parseTimeAnchor("5 January 2024")).toBeNull();
  });

  it("flattens lists, nested lists and objects of lists into ids", () => {
    expect(flattenIds([1, [2, [3]], { a: [4], b: 5 }])).toEqual(["1", "2", "3", "4", "5"]);
    expect(flattenIds(null)).toEqual([]);
  });

  it("names what is wrong with a malformed chat", () => {
    expect(() => parseBeamChat("c", {}, {}, "x")).toThrow("x/chat.json: must be an array of batches");
    const undated = [{ batch_number: 1, turns: [[{ role: "user", id: 0, content: "hi" }]] }];
    expect(() => parseBeamChat("c", undated, {}, "x")).toThrow("no time_anchor before the first message");
    const repeated = [
      {
        batch_number: 1,
        turns: [
          [
            { role: "user", id: 0, content: "a", time_anchor: "May-01-2024" },
            { role: "assistant", id: 0, content: "b" },
          ],
        ],
      },
    ];
    expect(() => parseBeamChat("c", repeated, {}, "x")).toThrow("id 0 repeats");
  });
});

describe("loadBeamDataset errors", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "beam-loader-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("names a missing folder, an empty one and a broken file", async () => {
    await expect(loadBeamDataset(join(dir, "missing"))).rejects.toThrow("cannot read BEAM chats in");
    await expect(loadBeamDataset(dir)).rejects.toThrow("no numbered chat folders");
    await mkdir(join(dir, "1"));
    await writeFile(join(dir, "1", "chat.json"), "[");
    await expect(loadBeamDataset(dir)).rejects.toThrow("chat.json is not valid JSON");
  });
});
