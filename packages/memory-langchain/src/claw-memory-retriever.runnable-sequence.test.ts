import { openTempSqliteMemory } from "@claw/memory-core/testkit";
import type { Document } from "@langchain/core/documents";
import { StringOutputParser } from "@langchain/core/output_parsers";
import { ChatPromptTemplate } from "@langchain/core/prompts";
import { RunnablePassthrough, RunnableSequence } from "@langchain/core/runnables";
import { FakeChatModel } from "@langchain/core/utils/testing";
import { describe, expect, it } from "vitest";
import { ClawMemoryRetriever } from "./claw-memory-retriever.js";

describe("ClawMemoryRetriever", () => {
  it("returns the recalled memories as Documents with their key, score, category and dates", async () => {
    const memory = openTempSqliteMemory();
    const tz = await memory.store("tz", "The user lives in Lisbon", { metadata: { source: "chat" } });
    await memory.store("pet", "The user has a cat named Miso");
    await memory.store("standup", "Standup moved to 9:30", { category: "daily", sessionId: "s1" });

    const documents = await new ClawMemoryRetriever({ memory }).invoke("where does the user live");

    // Best first: the memory holding every query term, then one sharing only "user".
    expect(documents.map((d) => d.pageContent)).toEqual([
      "The user lives in Lisbon",
      "The user has a cat named Miso",
    ]);
    const [first, second] = documents;
    expect(first?.id).toBe(tz.id);
    expect(first?.metadata).toEqual({
      key: "tz",
      score: expect.any(Number),
      category: "core",
      namespace: "default",
      createdAt: tz.createdAt,
      updatedAt: tz.updatedAt,
      importance: 0.7,
      metadata: { source: "chat" },
    });
    // A memory with every query term scores at least 0.5 (at most 1), a partial match below it.
    expect(first?.metadata.score).toBeGreaterThanOrEqual(0.5);
    expect(first?.metadata.score).toBeLessThanOrEqual(1);
    expect(second?.metadata.key).toBe("pet");
    expect(second?.metadata.score).toBeLessThan(0.5);
    expect(second?.metadata.score).toBeGreaterThan(0);

    const daily = await new ClawMemoryRetriever({ memory, categories: ["daily"] }).invoke("standup");
    expect(daily.map((d) => [d.metadata.key, d.metadata.category, d.metadata.sessionId])).toEqual([
      ["standup", "daily", "s1"],
    ]);
  });

  it("applies limit, minScore, where and namespace from its constructor", async () => {
    const memory = openTempSqliteMemory();
    await memory.store("a", "Project alpha kickoff on Monday", { metadata: { project: "alpha" } });
    await memory.store("b", "Project beta kickoff on Tuesday", { metadata: { project: "beta" } });
    await memory.store("c", "Project gamma kickoff on Friday", { namespace: "other" });
    const keys = async (
      options: Partial<ConstructorParameters<typeof ClawMemoryRetriever>[0]>,
      query: string,
    ) =>
      (await new ClawMemoryRetriever({ memory, ...options }).invoke(query)).map((d) => d.metadata.key).sort();

    expect(await keys({}, "project kickoff")).toEqual(["a", "b"]);
    expect(await keys({ limit: 1 }, "project kickoff")).toHaveLength(1);
    expect(await keys({ where: { project: "beta" } }, "project kickoff")).toEqual(["b"]);
    expect(await keys({ namespace: "other" }, "project kickoff")).toEqual(["c"]);
    // "alpha" matches one memory fully and the others not at all; a high minScore keeps that one.
    expect(await keys({ minScore: 0.5 }, "alpha kickoff")).toEqual(["a"]);
  });

  it("feeds a RunnableSequence: the chat model receives the recalled memory in its prompt", async () => {
    const memory = openTempSqliteMemory();
    await memory.store("pet", "The user has a cat named Miso");
    await memory.store("tz", "The user lives in Lisbon");
    const retriever = new ClawMemoryRetriever({ memory, limit: 3 });
    const prompt = ChatPromptTemplate.fromMessages([
      ["system", "Answer from these memories:\n{context}"],
      ["human", "{question}"],
    ]);
    const chain = RunnableSequence.from([
      {
        context: retriever.pipe((docs: Document[]) =>
          docs.map((d) => `- ${d.pageContent} (${d.metadata.key})`).join("\n"),
        ),
        question: new RunnablePassthrough(),
      },
      prompt,
      new FakeChatModel({}), // echoes the messages it received
      new StringOutputParser(),
    ]);

    const output = await chain.invoke("what is my cat called?");

    expect(output).toBe(
      "Answer from these memories:\n- The user has a cat named Miso (pet)\nwhat is my cat called?",
    );
  });

  it("refuses a missing memory when it is created", () => {
    expect(() => new ClawMemoryRetriever({} as never)).toThrow("memory: expected a Memory");
  });
});
