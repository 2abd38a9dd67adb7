import { create, insertMultiple, search } from "@orama/orama";
import type { Conversation } from "../locomo-loader.js";
import { type RetrievalEngine, turnContent } from "./engine.js";

const SCHEMA = { turn: "string", content: "string" } as const;

type TurnIndex = ReturnType<typeof create<typeof SCHEMA>>;

/**
 * Orama 3's in-memory full-text search with its defaults: BM25, no stemming, no stop words, and
 * prefix matching of query terms. `threshold: 1` (Orama's default, spelled out) returns every
 * document matching at least one term; 0 would keep only documents holding all of them, which
 * a natural-language question almost never has.
 */
export function createOramaBm25(): RetrievalEngine {
  let db: TurnIndex | null = null;

  return {
    name: "orama-bm25",

    async index(conversation: Conversation): Promise<void> {
      const fresh = create({ schema: SCHEMA });
      await insertMultiple(
        fresh,
        conversation.turns.map((turn) => ({ turn: turn.id, content: turnContent(turn) })),
      );
      db = fresh;
    },

    async search(question: string, k: number): Promise<string[]> {
      if (db === null) throw new Error("orama-bm25: search before index");
      const result = await search(db, {
        mode: "fulltext",
        term: question,
        properties: ["content"],
        limit: k,
        threshold: 1,
      });
      return result.hits.map((hit) => hit.document.turn);
    },

    async close(): Promise<void> {
      db = null;
    },
  };
}
