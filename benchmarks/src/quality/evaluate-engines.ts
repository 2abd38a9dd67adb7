import type { RetrievalEngine } from "./engines/engine.js";
import type { Conversation, Question } from "./locomo-loader.js";
import { type QuestionMetrics, questionMetrics, type ScoredQuestion } from "./retrieval-metrics.js";

export interface EngineRun {
  engine: string;
  /** One entry per question that has evidence. */
  scored: ScoredQuestion[];
  /** Wall time of each search call, ms. */
  searchMs: number[];
  /** Wall time of indexing all conversations, ms. */
  indexMs: number;
}

export interface QuestionResult {
  engine: string;
  conversation: Conversation;
  question: Question;
  ranked: string[];
  metrics: QuestionMetrics;
}

export interface EvaluateOptions {
  /** Results asked of each search. */
  k: number;
  log?: (message: string) => void;
  /** Sees every ranked result, e.g. to study misses. */
  onResult?: (result: QuestionResult) => void;
}

/** Questions that can be scored: those whose evidence names at least one turn. */
export function scorableQuestions(conversation: Conversation): Question[] {
  return conversation.questions.filter((q) => q.evidence.length > 0);
}

/**
 * Runs every engine over every conversation: index the conversation, then ask each scorable
 * question once. Engines are closed afterwards, also on failure.
 */
export async function evaluateEngines(
  engines: readonly RetrievalEngine[],
  conversations: readonly Conversation[],
  options: EvaluateOptions,
): Promise<EngineRun[]> {
  const runs: EngineRun[] = [];
  let failure: { error: unknown } | null = null;
  try {
    for (const engine of engines) {
      const run: EngineRun = { engine: engine.name, scored: [], searchMs: [], indexMs: 0 };
      for (const conversation of conversations) {
        const started = performance.now();
        await engine.index(conversation);
        run.indexMs += performance.now() - started;
        for (const question of scorableQuestions(conversation)) {
          const before = performance.now();
          const ranked = await engine.search(question.question, options.k);
          run.searchMs.push(performance.now() - before);
          const metrics = questionMetrics(ranked, question.evidence);
          run.scored.push({ category: question.category, metrics });
          options.onResult?.({ engine: engine.name, conversation, question, ranked, metrics });
        }
        options.log?.(`quality: ${engine.name} ${conversation.id} (${conversation.turns.length} turns) done`);
      }
      runs.push(run);
    }
  } catch (error) {
    failure = { error };
  }
  // Every engine is closed even if one cannot be; a close failure must not hide the run's error.
  const closed = await Promise.allSettled(engines.map((engine) => engine.close()));
  if (failure !== null) throw failure.error;
  const rejected = closed.find((c): c is PromiseRejectedResult => c.status === "rejected");
  if (rejected !== undefined) throw rejected.reason;
  return runs;
}
