// One session's chat messages kept in the memory as "conversation" entries, for LangChain
// (RunnableWithMessageHistory and anything else that takes a BaseListChatMessageHistory).
import { randomUUID } from "node:crypto";
import type { Memory, MemoryEntry, Metadata } from "@claw/memory-api";
import { MemoryError } from "@claw/memory-api";
import { BaseListChatMessageHistory } from "@langchain/core/chat_history";
import {
  type BaseMessage,
  mapChatMessagesToStoredMessages,
  mapStoredMessagesToChatMessages,
  type StoredMessage,
} from "@langchain/core/messages";

/** What a ClawChatMessageHistory stores into: the memory, the session and the namespace. */
export interface ClawChatMessageHistoryInput {
  memory: Memory;
  sessionId: string;
  /** Default "default". */
  namespace?: string;
}

/** Where in an entry's metadata the message is kept (its content is the entry's content). */
const FIELD = "langchain";

/**
 * Each message is one `conversation` entry of the session, its text the entry's content (so
 * recall finds past conversations) and the rest of the message (type, tool calls, ids) in its
 * metadata, so getMessages gives back the same messages in the order they were added. clear()
 * deletes every entry of the session in the namespace, with their history.
 */
export class ClawChatMessageHistory extends BaseListChatMessageHistory {
  override lc_namespace = ["claw_memory", "chat_history"];

  readonly memory: Memory;
  readonly sessionId: string;
  readonly namespace: string;

  constructor(fields: ClawChatMessageHistoryInput) {
    super(fields);
    if (fields?.memory === undefined || typeof fields.memory.store !== "function")
      throw MemoryError.invalidInput("memory", "expected a Memory");
    if (typeof fields.sessionId !== "string" || fields.sessionId === "")
      throw MemoryError.invalidInput("sessionId", "expected a non-empty string");
    this.memory = fields.memory;
    this.sessionId = fields.sessionId;
    this.namespace = fields.namespace ?? "default";
  }

  override async getMessages(): Promise<BaseMessage[]> {
    const entries = await this.entries();
    return mapStoredMessagesToChatMessages(entries.map(storedMessageOf));
  }

  async addMessage(message: BaseMessage): Promise<void> {
    await this.addMessages([message]);
  }

  /** One store per message, in order: the session's turns are ordered by when they were written. */
  override async addMessages(messages: BaseMessage[]): Promise<void> {
    for (const stored of mapChatMessagesToStoredMessages(messages)) {
      const text = textOf(stored);
      // A message without text (an AI message that only calls tools) still needs some content.
      const entryContent = text === "" ? `(${stored.type} message)` : text;
      const { content, ...rest } = stored.data;
      // The content is kept in the metadata only when the entry's content is not the same.
      const kept = content === entryContent ? rest : stored.data;
      await this.memory.store(`chat_${randomUUID()}`, entryContent, {
        category: "conversation",
        namespace: this.namespace,
        sessionId: this.sessionId,
        // Through JSON: the message may hold undefined fields, which metadata cannot.
        metadata: JSON.parse(JSON.stringify({ [FIELD]: { type: stored.type, data: kept } })) as Metadata,
      });
    }
  }

  override async clear(): Promise<void> {
    const refs = (await this.entries(false)).map((e) => ({ key: e.key, namespace: e.namespace }));
    if (refs.length > 0) await this.memory.forgetMany(refs, { eraseHistory: true });
  }

  /** The session's entries in this namespace; only the messages this class wrote unless `all`. */
  private entries(onlyMessages = true): Promise<MemoryEntry[]> {
    return this.memory.export({
      namespace: this.namespace,
      sessionId: this.sessionId,
      ...(onlyMessages ? { category: "conversation", where: { [`${FIELD}.type`]: { $exists: true } } } : {}),
    });
  }
}

function textOf(stored: StoredMessage): string {
  const content: unknown = stored.data.content;
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((part: unknown) =>
      typeof part === "object" && part !== null && (part as { type?: unknown }).type === "text"
        ? String((part as { text?: unknown }).text ?? "")
        : "",
    )
    .filter((t) => t !== "")
    .join("\n");
}

function storedMessageOf(entry: MemoryEntry): StoredMessage {
  const kept = (entry.metadata?.[FIELD] ?? {}) as { type?: string; data?: Record<string, unknown> };
  const data = { content: entry.content, ...kept.data } as StoredMessage["data"];
  return { type: kept.type ?? "human", data };
}
