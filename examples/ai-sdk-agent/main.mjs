// `pnpm --filter ai-sdk-agent start [workspace-dir]`: two turns in two sessions, the memory closed
// and reopened between them, so what turn 2 knows of turn 1 came through claw-memory. Offline with
// ai/test's mock model; with OPENAI_API_KEY set, on OpenAI (OPENAI_MODEL, default gpt-4o-mini).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createAgent } from "./agent.mjs";
import { offlineModel } from "./offline-model.mjs";

const given = process.argv[2];
const workspaceDir = given ?? mkdtempSync(join(tmpdir(), "claw-ai-sdk-agent-"));
const online = Boolean(process.env.OPENAI_API_KEY);
const model = online
  ? (await import("@ai-sdk/openai")).openai(process.env.OPENAI_MODEL ?? "gpt-4o-mini")
  : offlineModel();
console.log(
  `model: ${online ? "OpenAI" : "offline (ai/test MockLanguageModelV4)"}; memory in ${workspaceDir}`,
);
const logger = {
  debug() {},
  info() {},
  warn: (m) => console.warn(`[memory] ${m}`),
  error: (m) => console.error(`[memory] ${m}`),
};

async function turn(label, sessionId, message) {
  const agent = await createAgent({ workspaceDir, model, logger });
  try {
    const reply = await agent.chat(message, sessionId);
    console.log(`\n${label} (session ${sessionId})\nyou> ${message}`);
    for (const call of reply.toolCalls) console.log(`  tool: ${call}`);
    const block = /<claw-memory>[\s\S]*<\/claw-memory>/.exec(reply.system)?.[0];
    console.log(
      block
        ? `  memory in the system prompt (last model call):\n${block.replace(/^/gm, "    ")}`
        : "  memory in the system prompt (last model call): (none)",
    );
    console.log(`bot> ${reply.text}`);
  } finally {
    await agent.close();
  }
}

try {
  await turn("turn 1", "monday", "Remember that my cat is named Miso.");
  await turn("turn 2", "tuesday", "What is my cat called?");
} finally {
  if (given === undefined) rmSync(workspaceDir, { recursive: true, force: true });
}
