import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { createAgent } from "../agent.mjs";
import { type ChatRequest, startFakeOpenAI } from "./fake-openai-server.js";

/** The scripted model: it knows the cat's name only if the prompt carries it. */
function scriptedModel(request: ChatRequest): string {
  const prompt = request.messages.map((m) => m.content).join("\n");
  const last = request.messages[request.messages.length - 1]?.content ?? "";
  if (/cat called|cat's name/i.test(last)) {
    const name = /cat is named (\w+)/i.exec(prompt)?.[1];
    return name ? `Your cat is called ${name}.` : "I don't know your cat's name.";
  }
  return "Noted.";
}

describe("examples/agent-chat", () => {
  it("recalls in turn 5, after a restart, a fact told in turn 1", async () => {
    const fake = await startFakeOpenAI(scriptedModel);
    const workspaceDir = mkdtempSync(join(tmpdir(), "agent-chat-"));
    onTestFinished(async () => {
      await fake.close();
      rmSync(workspaceDir, { recursive: true, force: true });
    });
    const options = { workspaceDir, baseURL: fake.baseURL, apiKey: "test-key", model: "fake-chat" };

    const first = await createAgent(options);
    expect(await first.chat("Important: my cat is named Miso")).toBe("Noted.");
    await first.chat("I had pasta for lunch");
    await first.chat("The weather is grey today");
    await first.chat("I am reading a book about rivers");
    await first.close();

    const second = await createAgent(options);
    onTestFinished(() => second.close());
    expect(await second.chat("What is my cat called?")).toBe("Your cat is called Miso.");

    const turn5 = fake.chats[fake.chats.length - 1] as ChatRequest;
    // The fact reached the model through memory (the history did not survive the restart).
    expect(turn5.messages.length).toBe(2);
    expect(turn5.messages[0]?.content).toContain(
      "## What you remember about the user\n- Important: my cat is named Miso",
    );
    expect(fake.embeddingCalls()).toBeGreaterThan(0);
    const status = await second.memory.status();
    expect(status.embedding?.provider).toBe("custom");
    expect(status.missingEmbeddings).toBe(0);
  });

  it("without memory the same question goes unanswered (the test can fail)", async () => {
    const fake = await startFakeOpenAI(scriptedModel);
    const workspaceDir = mkdtempSync(join(tmpdir(), "agent-chat-"));
    onTestFinished(async () => {
      await fake.close();
      rmSync(workspaceDir, { recursive: true, force: true });
    });
    const agent = await createAgent({ workspaceDir, baseURL: fake.baseURL, apiKey: "k", model: "fake-chat" });
    onTestFinished(() => agent.close());
    expect(await agent.chat("What is my cat called?")).toBe("I don't know your cat's name.");
  });

  it("flushes durable notes to memory once when the conversation nears the context window", async () => {
    const fake = await startFakeOpenAI((request) =>
      request.messages[0]?.content.includes("Store durable memories now")
        ? "The user is planning a trip to Porto."
        : "OK.",
    );
    const workspaceDir = mkdtempSync(join(tmpdir(), "agent-chat-"));
    onTestFinished(async () => {
      await fake.close();
      rmSync(workspaceDir, { recursive: true, force: true });
    });
    // A tiny window: 24 000 tokens of reserve + soft threshold leave 1 000 tokens for the chat.
    const agent = await createAgent({
      workspaceDir,
      baseURL: fake.baseURL,
      apiKey: "k",
      model: "fake-chat",
      contextWindow: 25_000,
    });
    onTestFinished(() => agent.close());
    for (let i = 0; i < 6; i++) await agent.chat(`message ${i} ${"about the trip ".repeat(60)}`);
    const flushes = fake.chats.filter((c) => c.messages[0]?.content.includes("Store durable memories now"));
    expect(flushes.length).toBe(1);
    const stored = await agent.memory.recall("Porto trip");
    expect(stored[0]?.content).toBe("The user is planning a trip to Porto.");
  });
});
