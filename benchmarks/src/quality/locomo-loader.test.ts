import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseSessionDateTime } from "./locomo-date.js";
import { type Conversation, loadConversationDataset, parseConversationDataset } from "./locomo-loader.js";

const FIXTURE = new URL("./__fixtures__/locomo-tiny.json", import.meta.url).pathname;

describe("parseSessionDateTime", () => {
  it("reads LoCoMo's wall-clock times as UTC", () => {
    expect(parseSessionDateTime("1:56 pm on 8 May, 2023")).toBe("2023-05-08T13:56:00Z");
    expect(parseSessionDateTime("10:37 am on 27 June, 2023")).toBe("2023-06-27T10:37:00Z");
  });

  it("maps 12 am to midnight and 12 pm to noon", () => {
    expect(parseSessionDateTime("12:09 am on 13 September, 2023")).toBe("2023-09-13T00:09:00Z");
    expect(parseSessionDateTime("12:30 pm on 1 January, 2024")).toBe("2024-01-01T12:30:00Z");
  });

  it("accepts three-letter months", () => {
    expect(parseSessionDateTime("9:05 am on 2 Feb, 2023")).toBe("2023-02-02T09:05:00Z");
  });

  it("rejects other shapes and impossible dates", () => {
    expect(parseSessionDateTime("2023-05-08")).toBeNull();
    expect(parseSessionDateTime("1:56 pm on 31 June, 2023")).toBeNull();
    expect(parseSessionDateTime("13:00 pm on 1 June, 2023")).toBeNull();
    expect(parseSessionDateTime("1:00 pm on 1 Jux, 2023")).toBeNull();
  });
});

describe("loadConversationDataset", () => {
  let conversation: Conversation;

  beforeAll(async () => {
    const loaded = await loadConversationDataset(FIXTURE);
    expect(loaded).toHaveLength(1);
    conversation = loaded[0] as Conversation;
  });

  it("reads every turn of every session in order, with session and time", () => {
    expect(conversation.id).toBe("conv-tiny");
    expect(conversation.turns.map((t) => t.id)).toEqual([
      "D1:1",
      "D1:2",
      "D1:3",
      "D1:4",
      "D2:1",
      "D2:2",
      "D2:3",
    ]);
    expect(conversation.turns[4]).toEqual({
      id: "D2:1",
      session: "session_2",
      speaker: "Caroline",
      text: "I adopted a greyhound called Biscuit from the shelter.",
      timestamp: "2023-09-13T00:09:00Z",
    });
  });

  it("keeps the image caption of a turn that has one", () => {
    expect(conversation.turns[2]?.caption).toBe("a photo of a pottery bowl with a turquoise glaze");
    expect(conversation.turns[1]).not.toHaveProperty("caption");
  });

  it("drops unknown evidence ids, counts them, and splits packed lists", () => {
    const byQuestion = new Map(conversation.questions.map((q) => [q.question, q.evidence]));
    expect(byQuestion.get("What is the name of the greyhound Caroline adopted?")).toEqual(["D2:1"]);
    expect(byQuestion.get("What did they talk about the first time?")).toEqual(["D1:1", "D1:2"]);
    expect(byQuestion.get("Which city does Melanie live in?")).toEqual([]);
    expect(conversation.droppedEvidence).toEqual(["D:2:9", "D9:99"]);
  });

  it("turns numeric answers into text and uses the adversarial answer when there is none", () => {
    const answers = conversation.questions.map((q) => [q.category, q.answer]);
    expect(answers[3]).toEqual(["cat2", "2023"]);
    expect(answers[4]).toEqual(["cat5", "a canoe"]);
  });
});

describe("loader errors", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "locomo-loader-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("names the path of a missing or broken file", async () => {
    const missing = join(dir, "missing.json");
    await expect(loadConversationDataset(missing)).rejects.toThrow(`cannot read dataset ${missing}`);
    const broken = join(dir, "broken.json");
    await writeFile(broken, "[{");
    await expect(loadConversationDataset(broken)).rejects.toThrow(`${broken} is not valid JSON`);
  });

  const session = [{ speaker: "A", dia_id: "D1:1", text: "hi" }];
  const valid = () => ({
    sample_id: "c",
    conversation: { session_1: session, session_1_date_time: "1:00 pm on 1 May, 2023" },
    qa: [{ question: "q?", answer: "a", evidence: ["D1:1"], category: 1 }],
  });

  it("names the path and the field that is wrong", () => {
    expect(() => parseConversationDataset({}, "x.json")).toThrow("x.json: (root) must be an array");
    const noId = { ...valid(), sample_id: 3 };
    expect(() => parseConversationDataset([noId], "x.json")).toThrow("x.json: [0].sample_id must be");
    const badTime = valid();
    badTime.conversation.session_1_date_time = "yesterday";
    expect(() => parseConversationDataset([badTime], "x.json")).toThrow(
      'x.json: [0].conversation.session_1_date_time must read like "1:56 pm on 8 May, 2023", got "yesterday"',
    );
    const badTurn = {
      ...valid(),
      conversation: { ...valid().conversation, session_1: [{ dia_id: "D1:1" }] },
    };
    expect(() => parseConversationDataset([badTurn], "x.json")).toThrow(
      "x.json: [0].conversation.session_1[0].speaker must be a non-empty string, got undefined",
    );
    const badCategory = { ...valid(), qa: [{ question: "q?", answer: "a", evidence: [], category: "1" }] };
    expect(() => parseConversationDataset([badCategory], "x.json")).toThrow("x.json: [0].qa[0].category");
    const noAnswer = { ...valid(), qa: [{ question: "q?", evidence: [], category: 1 }] };
    expect(() => parseConversationDataset([noAnswer], "x.json")).toThrow("x.json: [0].qa[0].answer");
  });

  it("rejects a repeated dia_id", () => {
    const twice = {
      ...valid(),
      conversation: { ...valid().conversation, session_1: [...session, ...session] },
    };
    expect(() => parseConversationDataset([twice], "x.json")).toThrow('session_1[1].dia_id repeats "D1:1"');
  });
});
