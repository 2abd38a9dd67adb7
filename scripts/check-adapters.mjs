// Part of `pnpm check-packages`: each agent-framework adapter installs with plain npm in a folder of
// its own from its tarball, with nothing but the claw-memory packages it needs (as tarballs) and
// the framework from the registry, and works there: a memory recalled into a model call, tools run.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** The claw-memory packages an adapter needs installed beside it: its peers and theirs. */
const CLAW_PEERS = ["@claw/memory-api", "@claw/memory-core", "@claw/memory-lifecycle"];

const ADAPTERS = [
  {
    name: "@claw/memory-ai-sdk",
    framework: "ai",
    script: `
      import { SqliteMemory } from "@claw/memory-core";
      import { memoryMiddleware, memoryTools } from "@claw/memory-ai-sdk";
      import { generateText, wrapLanguageModel } from "ai";
      import { MockLanguageModelV4 } from "ai/test";
      const memory = SqliteMemory.open({ path: ":memory:" });
      const stored = await memoryTools(memory).memory_store.execute(
        { key: "tz", content: "The user lives in Lisbon" }, { toolCallId: "c1", messages: [] });
      const model = new MockLanguageModelV4({ doGenerate: async ({ prompt }) => ({
        content: [{ type: "text", text: prompt[0].role === "system" && prompt[0].content.includes("Lisbon") ? "Lisbon" : "?" }],
        finishReason: { unified: "stop", raw: "stop" },
        usage: { inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
                 outputTokens: { total: 1, text: 1, reasoning: undefined } },
        warnings: [] }) });
      const { text } = await generateText({
        model: wrapLanguageModel({ model, middleware: memoryMiddleware({ memory }) }),
        prompt: "Where do I live?" });
      const saved = await memory.count({ category: "daily" });
      await memory.close();
      process.stdout.write(\`\${stored.key} \${text} \${saved}\`);`,
    expected: "tz Lisbon 1",
  },
  {
    name: "@claw/memory-langchain",
    framework: "@langchain/core",
    script: `
      import { SqliteMemory } from "@claw/memory-core";
      import { ClawChatMessageHistory, ClawMemoryRetriever, memoryTools } from "@claw/memory-langchain";
      const memory = SqliteMemory.open({ path: ":memory:" });
      const [store] = memoryTools(memory);
      const stored = JSON.parse(await store.invoke({ key: "tz", content: "The user lives in Lisbon" }));
      const [doc] = await new ClawMemoryRetriever({ memory }).invoke("where does the user live");
      const history = new ClawChatMessageHistory({ memory, sessionId: "s1" });
      await history.addUserMessage("hello");
      const messages = await history.getMessages();
      await memory.close();
      process.stdout.write(\`\${stored.key} \${doc.metadata.key} \${messages[0].type}\`);`,
    expected: "tz tz human",
  },
];

/**
 * @param {{ temp: string, tarballs: Map<string, string>, check: (what: string, ok: boolean, detail?: string) => void }} options
 */
export function checkAdapters({ temp, tarballs, check }) {
  const root = new URL("..", import.meta.url).pathname;
  for (const adapter of ADAPTERS) {
    const dir = join(temp, "adapters", adapter.name.replace("/", "__"));
    mkdirSync(dir, { recursive: true });
    const manifest = JSON.parse(
      readFileSync(join(root, "packages", adapter.name.split("/")[1], "package.json"), "utf8"),
    );
    const dependencies = { [adapter.framework]: manifest.peerDependencies[adapter.framework] };
    for (const name of [adapter.name, ...CLAW_PEERS]) dependencies[name] = `file:${tarballs.get(name)}`;
    writeFileSync(
      join(dir, "package.json"),
      `${JSON.stringify({ name: "adapter-check", private: true, type: "module", dependencies }, null, 2)}\n`,
    );
    execFileSync("npm", ["install", "--no-audit", "--no-fund", "--omit=dev", "--loglevel=error"], {
      cwd: dir,
      stdio: ["ignore", "ignore", "inherit"],
    });
    const installed = JSON.parse(
      readFileSync(join(dir, "node_modules", adapter.name, "package.json"), "utf8"),
    );
    const peers = Object.keys(installed.peerDependencies ?? {})
      .sort()
      .join(",");
    const expectedPeers = [adapter.framework, "@claw/memory-api", "@claw/memory-lifecycle"].sort().join(",");
    check(`${adapter.name} has no dependencies`, Object.keys(installed.dependencies ?? {}).length === 0);
    check(`${adapter.name} peers`, peers === expectedPeers, peers);
    check(`${adapter.name}: no test framework installed`, !existsSync(join(dir, "node_modules/vitest")));
    const output = execFileSync(process.execPath, ["--input-type=module", "-e", adapter.script], {
      cwd: dir,
      encoding: "utf8",
    }).trim();
    check(
      `${adapter.name} works with ${adapter.framework} from its tarball`,
      output === adapter.expected,
      output,
    );
  }
}
