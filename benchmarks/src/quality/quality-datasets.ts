/**
 * The two families of chats the quality suite scores: LoCoMo (short turns between two people) and
 * BEAM (long messages between a user and an assistant, with other kinds of questions). Each says
 * where it is read from and how its questions are grouped and pooled.
 */
import { join } from "node:path";
import { BEAM_QUESTION_TYPES, loadBeamDataset } from "./beam-loader.js";
import { type Conversation, loadConversationDataset } from "./locomo-loader.js";
import type { QuestionGrouping } from "./retrieval-metrics.js";

export interface QualityDataset extends QuestionGrouping {
  /** Figure ids and chart files start with it: `quality.<id>.<engine>.<metric>.<group>`. */
  id: "locomo" | "beam";
  title: string;
  /** What one document is: "turn" or "message". */
  unit: string;
  /** Where it lies under the data directory. */
  path: string;
  /** One line for the tables: what a document holds. */
  document: string;
  /** The note under the per-category table: what its categories are. */
  categoryNote: string;
  load(dataDir: string): Promise<Conversation[]>;
}

export const LOCOMO_FILE = join("locomo", "locomo10-dev.json");
export const BEAM_DIR = "beam-500k";

/** Categories 1–4 have answers in the conversation; 5 is adversarial and reported apart. */
export const LOCOMO_GROUPING: QuestionGrouping = {
  pooled: "cat1-4",
  groups: ["cat1", "cat2", "cat3", "cat4", "cat5"],
  inPool: (category) => category !== "cat5",
};

/** Every BEAM type with evidence is pooled (abstention questions have none and are not scored). */
export const BEAM_GROUPING: QuestionGrouping = {
  pooled: "all",
  groups: BEAM_QUESTION_TYPES,
  inPool: () => true,
};

export const LOCOMO: QualityDataset = {
  ...LOCOMO_GROUPING,
  id: "locomo",
  title: "LoCoMo",
  unit: "turn",
  path: LOCOMO_FILE,
  document: '"speaker: text [image: caption]"',
  categoryNote: "Categories as numbered in the dataset (5 is adversarial); scored questions in brackets.",
  load: (dataDir) => loadConversationDataset(join(dataDir, LOCOMO_FILE)),
};

export const BEAM: QualityDataset = {
  ...BEAM_GROUPING,
  id: "beam",
  title: "BEAM",
  unit: "message",
  path: BEAM_DIR,
  document: '"role: content", a session per batch dated by its time anchor',
  categoryNote:
    "Question types as named in the dataset (abstention has no evidence); scored questions in brackets.",
  load: (dataDir) => loadBeamDataset(join(dataDir, BEAM_DIR)),
};

export const QUALITY_DATASETS: readonly QualityDataset[] = [LOCOMO, BEAM];
