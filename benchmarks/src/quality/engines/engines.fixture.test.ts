import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { evaluateEngines, type QuestionResult } from "../evaluate-engines.js";
import { type Conversation, loadConversationDataset } from "../locomo-loader.js";
import { createAllEngines, ENGINE_NAMES } from "./all-engines.js";
import { turnContent } from "./engine.js";
import { naiveMatch } from "./fts5-baseline.js";

const FIXTURE = new URL("../__fixtures__/locomo-tiny.json", import.meta.url).pathname;

/** Questions whose single evidence turn shares rare words with them: every engine must rank it first. */
const OBVIOUS: Record<string, string> = {
  "What did Melanie paint over the lake?": "D1:2",
  "What colour glaze did the pottery bowl have?": "D1:3",
  "What is the name of the greyhound Caroline adopted?": "D2:1",
  "When did Caroline start studying psychology?": "D2:3",
  "What did Caroline's husband buy for the camping trip?": "D2:2",
};

describe("engines on the tiny LoCoMo fixture", () => {
  let workDir: string;
  let conversations: Conversation[];
  const results: QuestionResult[] = [];

  beforeAll(async () => {
    workDir = await mkdtemp(join(tmpdir(), "quality-engines-"));
    conversations = await loadConversationDataset(FIXTURE);
    await evaluateEngines(createAllEngines(workDir), conversations, {
      k: 10,
      onResult: (r) => results.push(r),
    });
  });

  afterAll(async () => {
    await rm(workDir, { recursive: true, force: true });
  });

  it("asks every engine each question that has evidence", () => {
    expect([...new Set(results.map((r) => r.engine))]).toEqual([...ENGINE_NAMES]);
    // 7 questions, one of which has no known evidence turn.
    for (const name of ENGINE_NAMES) expect(results.filter((r) => r.engine === name)).toHaveLength(6);
  });

  for (const name of ENGINE_NAMES) {
    it(`${name} ranks the obvious evidence turn first`, () => {
      for (const [question, turn] of Object.entries(OBVIOUS)) {
        const result = results.find((r) => r.engine === name && r.question.question === question);
        expect(result?.ranked[0], `${name}: ${question}`).toBe(turn);
        expect(result?.metrics.mrr).toBe(1);
      }
    });
  }

  it("finds a turn through its image caption alone", () => {
    const hits = results.filter((r) => r.question.question.includes("glaze"));
    expect(hits.map((r) => r.ranked[0])).toEqual(ENGINE_NAMES.map(() => "D1:3"));
  });

  it("returns at most k turn ids", async () => {
    const [engine] = createAllEngines(workDir);
    try {
      await engine?.index(conversations[0] as Conversation);
      const ranked = await engine?.search("Caroline Melanie the", 2);
      expect(ranked).toHaveLength(2);
    } finally {
      await engine?.close();
    }
  });
});

describe("turnContent", () => {
  it("prefixes the speaker and appends the caption", () => {
    const turn = { id: "D1:3", session: "session_1", speaker: "Caroline", text: "Look!", timestamp: "" };
    expect(turnContent(turn)).toBe("Caroline: Look!");
    expect(turnContent({ ...turn, caption: "a bowl" })).toBe("Caroline: Look! [image: a bowl]");
  });
});

describe("naiveMatch", () => {
  it("OR-s the lower-cased words, quoted, without stop-word removal", () => {
    expect(naiveMatch("When did Caroline's mom visit?")).toBe(
      '"when" OR "did" OR "caroline" OR "s" OR "mom" OR "visit"',
    );
    expect(naiveMatch('"NEAR" AND * the the')).toBe('"near" OR "and" OR "the"');
    expect(naiveMatch("?!")).toBeNull();
  });
});
