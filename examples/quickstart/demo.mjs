// Stores a few memories in a real workspace and recalls them: keyword-only first, then hybrid
// with the deterministic hashing embedder (swap in @claw/embeddings-openai etc. for real vectors).
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createHashingEmbeddingProvider, createMemory } from "@claw/memory-core";

const workspaceDir = process.argv[2] ?? mkdtempSync(join(tmpdir(), "claw-memory-demo-"));

const memory = await createMemory({ workspaceDir, embeddings: null });
await memory.store("user_language", "The user prefers TypeScript for backend services");
await memory.store("user_pet", "The user has a dog named Rex who loves the beach", { category: "daily" });
await memory.store("deploy_rule", "Never deploy on Fridays: it is a team rule");
await memory.store("fruit", "我喜欢吃苹果");

for (const query of ["what language for the backend?", "deploy friday", "苹果"]) {
  const [best] = await memory.recall(query);
  console.log(`recall ${JSON.stringify(query)} → ${best ? `${best.key}: ${best.content}` : "(nothing)"}`);
}
const status = await memory.status();
console.log(`keyword-only: ${status.entries} entries in ${status.path}`);
await memory.close();

const hybrid = await createMemory({ workspaceDir, embeddings: createHashingEmbeddingProvider() });
await hybrid.backfillEmbeddings();
const [pet] = await hybrid.recall("dog at the beach", { mode: "hybrid" });
console.log(`hybrid "dog at the beach" → ${pet?.key}`);
const hybridStatus = await hybrid.status();
console.log(`hybrid: vectors via ${hybridStatus.vector}, ${hybridStatus.missingEmbeddings} missing`);
await hybrid.close();
