import { join } from "node:path";
import type { EmbeddingProvider } from "@claw/memory-api";
import { createHashingEmbeddingProvider, type MemorySettings, SqliteMemory } from "@claw/memory-core";
import type { Conversation } from "../locomo-loader.js";
import { fileSafe, type RetrievalEngine, turnContent } from "./engine.js";

export type ClawMode = "bm25" | "hybrid";

/**
 * How turns are stored. "core": as timeless knowledge (core never decays), so ranking is by
 * relevance alone. "conversation": as an agent stores a chat, category "conversation" with the
 * session id and the session's date, recalled "as of" the day after the last turn; recency then
 * weighs in as it does for a user replaying the conversation.
 */
export type ClawStorage = "core" | "conversation";

/** One memory per turn keyed by its dia_id, in a fresh SqliteMemory per conversation. */
export interface ClawEngineOptions {
  /** Report name; default `claw-<mode>`, with `-conversation` for conversation storage. */
  name?: string;
  /** The provider for hybrid mode; default the offline hashing embedder. */
  embeddings?: () => EmbeddingProvider;
  /** Default "core". */
  storage?: ClawStorage;
  /** Memory settings (the config's `memory` section); default the defaults. */
  settings?: MemorySettings;
}

const DAY_MS = 86_400_000;

/** Engines made in this process: two engines of one name in one directory must not share files. */
let instances = 0;

/** One day after the conversation's latest turn: the moment a user would ask about it. */
export function dayAfterLastTurn(conversation: Conversation): Date {
  let latest = Number.NEGATIVE_INFINITY;
  for (const turn of conversation.turns) latest = Math.max(latest, Date.parse(turn.timestamp));
  if (!Number.isFinite(latest)) throw new Error(`${conversation.id}: no turn has a valid timestamp`);
  return new Date(latest + DAY_MS);
}

export function createClawEngine(
  mode: ClawMode,
  workDir: string,
  options: ClawEngineOptions = {},
): RetrievalEngine {
  const storage = options.storage ?? "core";
  const name = options.name ?? (storage === "core" ? `claw-${mode}` : `claw-${mode}-${storage}`);
  const embeddings = options.embeddings ?? (() => createHashingEmbeddingProvider({ dimensions: 256 }));
  let memory: SqliteMemory | null = null;
  let now: Date | undefined;
  let opened = 0;
  const instance = ++instances;

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
      // A numbered file: the same conversation indexed twice must not reuse the old database (an
      // import over an existing store replaces rows, which changes rids and so the order of ties).
      const path = join(workDir, `${fileSafe(name)}-${instance}-${fileSafe(conversation.id)}-${opened}.db`);
      const store = SqliteMemory.open({
        path,
        embeddings: mode === "hybrid" ? embeddings() : null,
        ...(options.settings ? { settings: options.settings } : {}),
      });
      memory = store;
      now = storage === "conversation" ? dayAfterLastTurn(conversation) : undefined;
      await store.import(
        conversation.turns.map((turn) => ({
          key: turn.id,
          content: turnContent(turn),
          category: storage,
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
      const entries = await memory.recall(question, { limit: k, mode, now });
      return entries.map((e) => e.key);
    },

    close: release,
  };
}
