import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Conversation, Turn } from "../locomo-loader.js";
import { type ClawStorage, createClawEngine, dayAfterLastTurn } from "./claw-engine.js";

/** The same words said twice, months apart, each alone in its session. */
function repeatedConversation(): Conversation {
  const turn = (id: string, session: string, timestamp: string): Turn => ({
    id,
    session,
    speaker: "Caroline",
    text: "We went kayaking on the river near the old mill.",
    timestamp,
  });
  return {
    id: "conv-repeat",
    turns: [
      turn("D1:1", "session_1", "2023-05-08T13:56:00Z"),
      turn("D2:1", "session_2", "2023-09-13T00:09:00Z"),
    ],
    questions: [],
    droppedEvidence: [],
  };
}

describe("claw engines by storage", () => {
  let workDir: string;
  beforeAll(async () => {
    workDir = await mkdtemp(join(tmpdir(), "quality-storage-"));
  });
  afterAll(async () => {
    await rm(workDir, { recursive: true, force: true });
  });

  async function ranking(mode: "bm25" | "hybrid", storage: ClawStorage): Promise<string[]> {
    const engine = createClawEngine(mode, workDir, { storage });
    try {
      await engine.index(repeatedConversation());
      return await engine.search("kayaking on the river", 10);
    } finally {
      await engine.close();
    }
  }

  it("names the conversation variant after its storage", () => {
    expect(createClawEngine("bm25", workDir).name).toBe("claw-bm25");
    expect(createClawEngine("hybrid", workDir, { storage: "conversation" }).name).toBe(
      "claw-hybrid-conversation",
    );
  });

  it("keeps core turns timeless: equal turns rank in the order they were stored", async () => {
    expect(await ranking("bm25", "core")).toEqual(["D1:1", "D2:1"]);
  });

  it("dates conversation turns and recalls as of the day after the last one: the recent turn wins", async () => {
    // Were recall's clock today's, both turns would be years old and tie as core turns do.
    expect(await ranking("bm25", "conversation")).toEqual(["D2:1", "D1:1"]);
    expect(await ranking("hybrid", "conversation")).toEqual(["D2:1", "D1:1"]);
  });
});

describe("dayAfterLastTurn", () => {
  it("is 24 hours after the latest turn, whatever the turn order", () => {
    const conversation = repeatedConversation();
    conversation.turns.reverse();
    expect(dayAfterLastTurn(conversation).toISOString()).toBe("2023-09-14T00:09:00.000Z");
  });

  it("refuses a conversation without a dated turn", () => {
    const empty: Conversation = { id: "conv-empty", turns: [], questions: [], droppedEvidence: [] };
    expect(() => dayAfterLastTurn(empty)).toThrow("conv-empty: no turn has a valid timestamp");
  });
});
