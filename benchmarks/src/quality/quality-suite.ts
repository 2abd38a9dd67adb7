import type { Suite, SuiteContext, SuiteOutput } from "../suite.js";
import { createAllEngines } from "./engines/all-engines.js";
import { realProviderEngine } from "./engines/real-provider.js";
import { wordVectorEngines } from "./engines/word-vector-engines.js";
import { evaluateEngines, scorableQuestions } from "./evaluate-engines.js";
import type { Conversation } from "./locomo-loader.js";
import { QUALITY_DATASETS } from "./quality-datasets.js";
import { buildQualityOutput, type DatasetStats } from "./quality-output.js";
import { METRIC_DEPTH, SEARCH_DEPTH } from "./retrieval-metrics.js";

/** Rank cut-off of MRR and nDCG. */
export const QUALITY_K = METRIC_DEPTH;

export { BEAM_DIR, LOCOMO_FILE } from "./quality-datasets.js";
/** Results asked of every search: recall is reported down to this depth. */
export { SEARCH_DEPTH };

export function datasetStats(conversations: readonly Conversation[]): DatasetStats {
  let questions = 0;
  let all = 0;
  for (const c of conversations) {
    questions += scorableQuestions(c).length;
    all += c.questions.length;
  }
  return {
    conversations: conversations.length,
    turns: conversations.reduce((s, c) => s + c.turns.length, 0),
    questions,
    unscorable: all - questions,
    droppedEvidence: conversations.reduce((s, c) => s + c.droppedEvidence.length, 0),
  };
}

/**
 * Turn-level retrieval quality on LoCoMo and message-level on BEAM: claw-memory's recall against
 * two BM25 baselines, every engine on both datasets in the same run.
 */
export const qualitySuite: Suite = {
  name: "quality",
  description:
    "LoCoMo turn-level and BEAM message-level retrieval (recall@1/5/10/20/40, MRR, nDCG@10 per " +
    "question category) of claw-bm25 and claw-hybrid, stored as core and as conversation turns, " +
    "and of claw-bm25 on PostgreSQL (PGlite), against plain SQLite FTS5 and Orama BM25; the full " +
    "profile adds hybrid on averaged word vectors",

  async run(ctx: SuiteContext): Promise<SuiteOutput> {
    const wordvec = ctx.profile === "full" ? await wordVectorEngines(ctx.workDir, ctx.log) : [];
    const real = await realProviderEngine(process.env, ctx.workDir, ctx.log);
    if (real.note !== undefined) ctx.log(`quality: ${real.note}`);
    // Engines are reopened by each index(): one list serves both datasets.
    const only = process.env.CLAW_QUALITY_ENGINES?.split(",");
    const engines = [
      ...createAllEngines(ctx.workDir),
      ...wordvec,
      ...(real.engine ? [real.engine] : []),
    ].filter((engine) => only === undefined || only.includes(engine.name));
    const output: SuiteOutput = { figures: [], charts: [], tables: [] };
    // Every profile runs every conversation of both datasets: fewer would hide regressions.
    for (const dataset of QUALITY_DATASETS) {
      const conversations = await dataset.load(ctx.dataDir);
      const stats = datasetStats(conversations);
      ctx.log(
        `quality: ${dataset.title}: ${stats.conversations} conversations, ${stats.turns} ${dataset.unit}s, ` +
          `${stats.questions} questions from ${dataset.path} (profile ${ctx.profile})`,
      );
      if (stats.droppedEvidence > 0) {
        ctx.log(
          `quality: ${dataset.title}: ${stats.droppedEvidence} evidence ids name no ${dataset.unit} and are dropped`,
        );
      }
      const runs = await evaluateEngines(engines, conversations, { k: SEARCH_DEPTH, log: ctx.log });
      const part = buildQualityOutput(dataset, runs, stats, SEARCH_DEPTH);
      output.figures.push(...part.figures);
      output.charts.push(...part.charts);
      output.tables.push(...part.tables);
    }
    if (real.note !== undefined) {
      output.tables.push({ title: "Real embedding provider", columns: ["provider"], rows: [[real.note]] });
    }
    return output;
  },
};
