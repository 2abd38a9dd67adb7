// The memory as a LangChain retriever: recall results as Documents, best first, with their scores.
import type { Memory, MemoryCategory, MemoryEntry, SearchMode, WhereFilter } from "@claw/memory-api";
import { MemoryError } from "@claw/memory-api";
import { Document } from "@langchain/core/documents";
import { BaseRetriever, type BaseRetrieverInput } from "@langchain/core/retrievers";

/** What a ClawMemoryRetriever recalls from, and how (limit, namespace and the other recall options). */
export interface ClawMemoryRetrieverInput extends BaseRetrieverInput {
  memory: Memory;
  /** Documents at most; default 5. */
  limit?: number;
  /** Leave out memories scoring below this (0..1). */
  minScore?: number;
  /** Only memories whose metadata matches (the memory's `where` filter). */
  where?: WhereFilter;
  /** Default "default"; "*" = every namespace. */
  namespace?: string;
  /** Only these categories (core, daily, conversation or custom ones). */
  categories?: MemoryCategory[];
  /** Default the memory's own (hybrid when it has embeddings). */
  mode?: SearchMode;
}

/** What each Document's metadata holds about the memory it came from. */
export interface ClawMemoryDocumentMetadata {
  key: string;
  /** In (0, 1]; an entry that contains every term of the query scores at least 0.5. */
  score: number | undefined;
  category: string;
  namespace: string;
  createdAt: string;
  updatedAt: string;
  importance?: number;
  sessionId?: string;
  /** The caller's own fields stored with the memory. */
  metadata?: Record<string, unknown>;
  expiresAt?: string;
}

/**
 * `invoke(query)` recalls from the memory and returns one Document per memory: `pageContent` is
 * its content, `metadata` its key, score, category, namespace and dates, `id` its id.
 *
 * @example
 * ```ts
 * import { createMemory } from "@claw/memory-core";
 * import { ClawMemoryRetriever } from "@claw/memory-langchain";
 *
 * const memory = await createMemory({ workspaceDir: "./my-agent" });
 * const retriever = new ClawMemoryRetriever({ memory, limit: 5 });
 * const docs = await retriever.invoke("what is my cat called?");
 * console.log(docs.map((doc) => `${doc.metadata.key}: ${doc.pageContent}`));
 * ```
 */
export class ClawMemoryRetriever extends BaseRetriever<ClawMemoryDocumentMetadata> {
  static override lc_name(): string {
    return "ClawMemoryRetriever";
  }

  override lc_namespace = ["claw_memory", "retrievers"];

  readonly memory: Memory;
  readonly limit?: number;
  readonly minScore?: number;
  readonly where?: WhereFilter;
  readonly namespace?: string;
  readonly categories?: MemoryCategory[];
  readonly mode?: SearchMode;

  constructor(fields: ClawMemoryRetrieverInput) {
    super(fields);
    if (fields?.memory === undefined || typeof fields.memory.recall !== "function")
      throw MemoryError.invalidInput("memory", "expected a Memory");
    this.memory = fields.memory;
    this.limit = fields.limit;
    this.minScore = fields.minScore;
    this.where = fields.where;
    this.namespace = fields.namespace;
    this.categories = fields.categories;
    this.mode = fields.mode;
  }

  override async _getRelevantDocuments(query: string): Promise<Document<ClawMemoryDocumentMetadata>[]> {
    const hits = await this.memory.recall(query, {
      limit: this.limit,
      minScore: this.minScore,
      where: this.where,
      namespace: this.namespace,
      categories: this.categories,
      mode: this.mode,
    });
    return hits.map(documentOf);
  }
}

function documentOf(entry: MemoryEntry): Document<ClawMemoryDocumentMetadata> {
  return new Document({
    id: entry.id,
    pageContent: entry.content,
    metadata: {
      key: entry.key,
      score: entry.score,
      category: entry.category,
      namespace: entry.namespace,
      createdAt: entry.createdAt,
      updatedAt: entry.updatedAt,
      ...(entry.importance === undefined ? {} : { importance: entry.importance }),
      ...(entry.sessionId === undefined ? {} : { sessionId: entry.sessionId }),
      ...(entry.metadata === undefined ? {} : { metadata: entry.metadata }),
      ...(entry.expiresAt === undefined ? {} : { expiresAt: entry.expiresAt }),
    },
  });
}
