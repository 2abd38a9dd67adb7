import { join } from "node:path";
import type { EmbeddingProvider } from "@claw/memory-api";
import { createHashingEmbeddingProvider, SqliteMemory } from "@claw/memory-core";
import type { Conversation } from "../locomo-loader.js";
import { fileSafe, type RetrievalEngine, turnContent } from "./engine.js";

export type ClawMode = "bm25" | "hybrid";

/**
 * claw-memory's own store: a fresh SqliteMemory per conversation, one memory per turn keyed by
 * its dia_id. Turns are stored as "core" because recall decays every other category by age, and
 * the conversations span months: decay would rank by recency, not by relevance to the question.
 */
export interface ClawEngineOptions {
  /** Report name; default `claw-<mode>`. */
  name?: string;
  /** The provider for hybrid mode; default the offline hashing embedder. */
  embeddings?: () => EmbeddingProvider;
}

export function createClawEngine(
  mode: ClawMode,
  workDir: string,
  options: ClawEngineOptions = {},
): RetrievalEngine {
  const name = options.name ?? `claw-${mode}`;
  const embeddings = options.embeddings ?? (() => createHashingEmbeddingProvider({ dimensions: 256 }));
  let memory: SqliteMemory | null = null;
  let opened = 0;

  async function release(): Promise<void> {
    const current = memory;
    memory = null;
    await current?.close();
  }

  return {
    name,

    async index(conversation: Conversation): Promise<void> {
      await release();
      opened += 1;
      // A numbered file: the same conversation indexed twice must not reuse the old database.
      const path = join(workDir, `${fileSafe(name)}-${fileSafe(conversation.id)}-${opened}.db`);
      const store = SqliteMemory.open({
        path,
        embeddings: mode === "hybrid" ? embeddings() : null,
      });
      memory = store;
      await store.import(
        conversation.turns.map((turn) => ({
          key: turn.id,
          content: turnContent(turn),
          category: "core" as const,
          sessionId: turn.session,
          createdAt: turn.timestamp,
          updatedAt: turn.timestamp,
        })),
      );
      // Embeddings are computed in the background by default; search must see every vector.
      await store.flush();
    },

    async search(question: string, k: number): Promise<string[]> {
      if (memory === null) throw new Error(`${name}: search before index`);
      const entries = await memory.recall(question, { limit: k, mode });
      return entries.map((e) => e.key);
    },

    close: release,
  };
}
