// Interactive chat: `OPENAI_API_KEY=sk-… pnpm --filter @claw/example-agent-chat start`
// or with any OpenAI-compatible endpoint: OPENAI_BASE_URL=http://127.0.0.1:11434/v1 CHAT_MODEL=llama3.1 …
import { stdin, stdout } from "node:process";
import { createInterface } from "node:readline/promises";
import { createAgent } from "./agent.mjs";

const baseURL = process.env.OPENAI_BASE_URL;
if (!process.env.OPENAI_API_KEY && !baseURL) {
  console.error("Set OPENAI_API_KEY (or OPENAI_BASE_URL for another OpenAI-compatible endpoint).");
  process.exit(2);
}
const agent = await createAgent({
  workspaceDir: process.env.CLAW_MEMORY_WORKSPACE ?? ".agent-chat-memory",
  apiKey: process.env.OPENAI_API_KEY,
  baseURL,
  model: process.env.CHAT_MODEL,
  embeddingModel: process.env.EMBEDDING_MODEL,
});
const rl = createInterface({ input: stdin, output: stdout });
console.log("Chat with a memory (Ctrl-D to quit). Tell it something, quit, come back and ask.");
try {
  for (;;) {
    const line = await rl.question("you> ").catch(() => null);
    if (line === null) break;
    if (line.trim() === "") continue;
    console.log(`bot> ${await agent.chat(line)}`);
  }
} finally {
  rl.close();
  await agent.close();
}
