/**
 * Reads a dataset of the LoCoMo shape (snap-research/LoCoMo `locomo10.json`): an array of
 * `{ sample_id, conversation: { session_N: Turn[], session_N_date_time }, qa: [...] }`.
 * The file is read where it lies; nothing is copied into the repository (CC BY-NC data).
 */
import { readFile } from "node:fs/promises";
import { parseSessionDateTime } from "./locomo-date.js";

export interface Turn {
  /** The dataset's dia_id, e.g. "D3:7". */
  id: string;
  /** "session_3". */
  session: string;
  speaker: string;
  text: string;
  /** BLIP caption of an image shared in the turn. */
  caption?: string;
  /** RFC 3339 (UTC) from the session's date_time. */
  timestamp: string;
}

export interface Question {
  question: string;
  /** Adversarial (category 5) items have no answer; their adversarial_answer is used instead. */
  answer: string;
  /** Ids of the turns holding the answer; unknown ids are already dropped. */
  evidence: string[];
  /** The group it is reported in: LoCoMo's "cat1" … "cat5", BEAM's question type. */
  category: string;
}

export interface Conversation {
  id: string;
  /** In session order, then dataset order. */
  turns: Turn[];
  questions: Question[];
  /** Evidence ids that named no turn (typos such as "D:11:26") and were dropped. */
  droppedEvidence: string[];
}

type Json = Record<string, unknown>;

class ShapeError extends Error {
  constructor(path: string, field: string, problem: string) {
    super(`${path}: ${field} ${problem}`);
    this.name = "ShapeError";
  }
}

/** Loads and validates every conversation of the dataset at `path`. */
export async function loadConversationDataset(path: string): Promise<Conversation[]> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new Error(`cannot read dataset ${path}: ${(error as Error).message}`, { cause: error });
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new Error(`${path} is not valid JSON: ${(error as Error).message}`, { cause: error });
  }
  return parseConversationDataset(data, path);
}

/** Validates already-parsed data; `path` only names the source in errors. */
export function parseConversationDataset(data: unknown, path: string): Conversation[] {
  if (!Array.isArray(data)) throw new ShapeError(path, "(root)", "must be an array of conversations");
  return data.map((item, i) => parseConversation(item, path, `[${i}]`));
}

function parseConversation(item: unknown, path: string, at: string): Conversation {
  const sample = object(item, path, at);
  const id = string(sample.sample_id, path, `${at}.sample_id`);
  const body = object(sample.conversation, path, `${at}.conversation`);
  const turns = parseTurns(body, path, `${at}.conversation`);
  const known = new Set(turns.map((t) => t.id));
  const droppedEvidence: string[] = [];
  const qa = sample.qa;
  if (!Array.isArray(qa)) throw new ShapeError(path, `${at}.qa`, "must be an array");
  const questions = qa.map((q, j) => parseQuestion(q, known, droppedEvidence, path, `${at}.qa[${j}]`));
  return { id, turns, questions, droppedEvidence };
}

function parseTurns(body: Json, path: string, at: string): Turn[] {
  // Sessions sort by number: "session_10" comes after "session_9", not after "session_1".
  const sessions = Object.keys(body)
    .map((key) => ({ key, n: /^session_(\d+)$/.exec(key)?.[1] }))
    .filter((s): s is { key: string; n: string } => s.n !== undefined)
    .sort((a, b) => Number(a.n) - Number(b.n));
  if (sessions.length === 0) throw new ShapeError(path, at, "has no session_N lists");
  const turns: Turn[] = [];
  const seen = new Set<string>();
  for (const { key } of sessions) {
    const list = body[key];
    if (!Array.isArray(list)) throw new ShapeError(path, `${at}.${key}`, "must be an array of turns");
    const when = string(body[`${key}_date_time`], path, `${at}.${key}_date_time`);
    const timestamp = parseSessionDateTime(when);
    if (timestamp === null) {
      throw new ShapeError(
        path,
        `${at}.${key}_date_time`,
        `must read like "1:56 pm on 8 May, 2023", got ${JSON.stringify(when)}`,
      );
    }
    list.forEach((raw, k) => {
      const field = `${at}.${key}[${k}]`;
      const turn = object(raw, path, field);
      const id = string(turn.dia_id, path, `${field}.dia_id`);
      if (seen.has(id)) throw new ShapeError(path, `${field}.dia_id`, `repeats ${JSON.stringify(id)}`);
      seen.add(id);
      const caption = turn.blip_caption;
      if (caption !== undefined && typeof caption !== "string") {
        throw new ShapeError(path, `${field}.blip_caption`, "must be a string when present");
      }
      turns.push({
        id,
        session: key,
        speaker: string(turn.speaker, path, `${field}.speaker`),
        text: string(turn.text, path, `${field}.text`, true),
        ...(caption ? { caption } : {}),
        timestamp,
      });
    });
  }
  return turns;
}

function parseQuestion(
  raw: unknown,
  known: ReadonlySet<string>,
  dropped: string[],
  path: string,
  at: string,
): Question {
  const qa = object(raw, path, at);
  const category = qa.category;
  if (typeof category !== "number" || !Number.isInteger(category)) {
    throw new ShapeError(path, `${at}.category`, `must be an integer, got ${JSON.stringify(category)}`);
  }
  const evidence = qa.evidence;
  if (!Array.isArray(evidence) || evidence.some((e) => typeof e !== "string")) {
    throw new ShapeError(path, `${at}.evidence`, "must be an array of strings");
  }
  const kept: string[] = [];
  for (const entry of evidence as string[]) {
    // A few items pack two ids into one string ("D8:6; D9:17"): a list separator, not a typo.
    for (const id of entry.split(/[;,\s]+/).filter((s) => s !== "")) {
      if (!known.has(id)) dropped.push(id);
      else if (!kept.includes(id)) kept.push(id);
    }
  }
  return {
    question: string(qa.question, path, `${at}.question`),
    answer: answerOf(qa, path, at),
    evidence: kept,
    category: `cat${category}`,
  };
}

function answerOf(qa: Json, path: string, at: string): string {
  const answer = qa.answer;
  // Some answers are bare years (2022); the metric never reads them, but they stay text.
  if (typeof answer === "string" || typeof answer === "number") return String(answer);
  if (answer === undefined && typeof qa.adversarial_answer === "string") return qa.adversarial_answer;
  throw new ShapeError(path, `${at}.answer`, "must be a string or a number (or adversarial_answer a string)");
}

function object(value: unknown, path: string, field: string): Json {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new ShapeError(path, field, "must be an object");
  }
  return value as Json;
}

function string(value: unknown, path: string, field: string, allowEmpty = false): string {
  if (typeof value !== "string" || (!allowEmpty && value.trim() === "")) {
    const kind = allowEmpty ? "a string" : "a non-empty string";
    throw new ShapeError(path, field, `must be ${kind}, got ${JSON.stringify(value)}`);
  }
  return value;
}
