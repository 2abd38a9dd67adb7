import type { Memory } from "@claw/memory-api";
import { DEFAULT_CONFIG } from "@claw/memory-core";
import { PostgresMemory } from "@claw/memory-postgres";
import { type PgliteSocketServer, servePglite } from "@claw/memory-postgres/pglite-server";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import type { Conversation } from "../locomo-loader.js";
import { dayAfterLastTurn } from "./claw-engine.js";
import { type RetrievalEngine, turnContent } from "./engine.js";

/**
 * claw-memory on PostgreSQL, keyword-only, stored as an agent stores a chat (as
 * claw-bm25-conversation on SQLite): the same pipeline on `tsvector` + `ts_rank_cd`. PostgreSQL is
 * PGlite (embedded, behind the loopback socket server) so the suite runs anywhere; a real server
 * ranks the same. Each conversation gets a fresh schema; the database lives for the engine's run.
 */
export function createPostgresEngine(): RetrievalEngine {
  let database: { db: PGlite; server: PgliteSocketServer; pool: pg.Pool } | null = null;
  let memory: Memory | null = null;
  let schema: string | null = null;
  let now: Date | undefined;
  let opened = 0;

  async function release(): Promise<void> {
    const current = memory;
    memory = null;
    await current?.close();
    if (schema !== null) await database?.pool.query(`DROP SCHEMA "${schema}" CASCADE`);
    schema = null;
  }

  return {
    name: "claw-pg-bm25-conversation",

    async index(conversation: Conversation): Promise<void> {
      await release();
      if (database === null) {
        const db = await PGlite.create();
        const server = await servePglite(db);
        database = { db, server, pool: new pg.Pool({ connectionString: server.url, max: 2 }) };
      }
      opened += 1;
      schema = `claw_quality_${opened}`;
      const store = await PostgresMemory.open({
        pool: database.pool,
        schema,
        settings: { ...DEFAULT_CONFIG.memory, hotCacheSize: 0 },
        embeddings: null,
      });
      memory = store;
      now = dayAfterLastTurn(conversation);
      await store.import(
        conversation.turns.map((turn) => ({
          key: turn.id,
          content: turnContent(turn),
          category: "conversation",
          sessionId: turn.session,
          createdAt: turn.timestamp,
          updatedAt: turn.timestamp,
        })),
      );
    },

    async search(question: string, k: number): Promise<string[]> {
      if (memory === null) throw new Error("claw-pg-bm25-conversation: search before index");
      const entries = await memory.recall(question, { limit: k, mode: "bm25", now });
      return entries.map((e) => e.key);
    },

    async close(): Promise<void> {
      try {
        await release();
      } finally {
        const current = database;
        database = null;
        await current?.pool.end();
        await current?.server.close();
        await current?.db.close();
      }
    },
  };
}
