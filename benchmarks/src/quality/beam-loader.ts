/**
 * Reads BEAM chats (mohammadtavakoli78/BEAM, `chats/<size>/<n>/`) into the shape LoCoMo is read
 * into, so that every engine and metric runs on both: one turn per message, a session per batch,
 * the batch's date as each message's time, and each probing question with its evidence messages.
 * The files are read where they lie; nothing is copied into the repository.
 */
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { monthIndex } from "./locomo-date.js";
import type { Conversation, Question, Turn } from "./locomo-loader.js";

/** BEAM's question types in report order; `abstention` has no evidence and is never scored. */
export const BEAM_QUESTION_TYPES = [
  "information_extraction",
  "knowledge_update",
  "temporal_reasoning",
  "event_ordering",
  "multi_session_reasoning",
  "contradiction_resolution",
  "instruction_following",
  "preference_following",
  "summarization",
] as const;

type Json = Record<string, unknown>;

/** "March-15-2024" → "2024-03-15T00:00:00Z"; null when it is not such a date. */
export function parseTimeAnchor(text: string): string | null {
  const match = /^\s*([A-Za-z]+)-(\d{1,2})-(\d{4})\s*$/.exec(text);
  if (match === null) return null;
  const month = monthIndex(match[1] ?? "");
  const day = Number(match[2]);
  const year = Number(match[3]);
  if (month < 0) return null;
  const date = new Date(Date.UTC(year, month, day));
  if (date.getUTCMonth() !== month || date.getUTCDate() !== day) return null;
  return `${date.toISOString().slice(0, 19)}Z`;
}

/** Every chat under `dir` (its numbered folders, in number order). */
export async function loadBeamDataset(dir: string): Promise<Conversation[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    throw new Error(`cannot read BEAM chats in ${dir}: ${(error as Error).message}`, { cause: error });
  }
  const chats = names.filter((n) => /^\d+$/.test(n)).sort((a, b) => Number(a) - Number(b));
  if (chats.length === 0) throw new Error(`${dir}: no numbered chat folders`);
  const conversations: Conversation[] = [];
  for (const name of chats) {
    const chat = await readJson(join(dir, name, "chat.json"));
    const questions = await readJson(join(dir, name, "probing_questions.json"));
    conversations.push(parseBeamChat(`beam-${name}`, chat, questions, join(dir, name)));
  }
  return conversations;
}

async function readJson(path: string): Promise<unknown> {
  const text = await readFile(path, "utf8");
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new Error(`${path} is not valid JSON: ${(error as Error).message}`, { cause: error });
  }
}

/** One chat and its probing questions; `where` only names the source in errors. */
export function parseBeamChat(id: string, chat: unknown, probing: unknown, where: string): Conversation {
  if (!Array.isArray(chat)) throw new Error(`${where}/chat.json: must be an array of batches`);
  const turns: Turn[] = [];
  const seen = new Set<string>();
  let date: string | null = null;
  chat.forEach((rawBatch, b) => {
    const batch = object(rawBatch, `${where}/chat.json [${b}]`);
    const session = `batch_${String(batch.batch_number ?? b + 1)}`;
    if (!Array.isArray(batch.turns)) throw new Error(`${where}/chat.json [${b}].turns: must be an array`);
    for (const group of batch.turns as unknown[]) {
      for (const rawMessage of Array.isArray(group) ? group : [group]) {
        const at = `${where}/chat.json [${b}] message`;
        const message = object(rawMessage, at);
        if (typeof message.time_anchor === "string") {
          date = parseTimeAnchor(message.time_anchor) ?? date;
        }
        if (date === null) throw new Error(`${at}: no time_anchor before the first message`);
        const messageId = message.id;
        if (typeof messageId !== "number" && typeof messageId !== "string") {
          throw new Error(`${at}: id must be a number`);
        }
        const turnId = String(messageId);
        if (seen.has(turnId)) throw new Error(`${at}: id ${turnId} repeats`);
        seen.add(turnId);
        if (typeof message.role !== "string" || typeof message.content !== "string") {
          throw new Error(`${at} ${turnId}: role and content must be strings`);
        }
        turns.push({ id: turnId, session, speaker: message.role, text: message.content, timestamp: date });
      }
    }
  });
  const questions: Question[] = [];
  const droppedEvidence: string[] = [];
  const byType = object(probing, `${where}/probing_questions.json`);
  for (const [type, list] of Object.entries(byType)) {
    if (!Array.isArray(list)) continue;
    for (const rawQuestion of list) {
      const item = object(rawQuestion, `${where}/probing_questions.json ${type}`);
      if (typeof item.question !== "string") continue;
      const evidence: string[] = [];
      for (const messageId of flattenIds(item.source_chat_ids)) {
        if (!seen.has(messageId)) droppedEvidence.push(messageId);
        else if (!evidence.includes(messageId)) evidence.push(messageId);
      }
      questions.push({ question: item.question, answer: answerOf(item), evidence, category: type });
    }
  }
  return { id, turns, questions, droppedEvidence };
}

/** Message ids from a list, nested lists or an object of lists, as strings. */
export function flattenIds(value: unknown): string[] {
  if (typeof value === "number" || (typeof value === "string" && /^\d+$/.test(value))) return [String(value)];
  if (Array.isArray(value)) return value.flatMap(flattenIds);
  if (value !== null && typeof value === "object") return Object.values(value).flatMap(flattenIds);
  return [];
}

function answerOf(item: Json): string {
  for (const field of ["answer", "ideal_answer", "ideal_summary", "ideal_response", "expected_compliance"]) {
    const value = item[field];
    if (typeof value === "string") return value;
  }
  return "";
}

function object(value: unknown, at: string): Json {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new Error(`${at}: must be an object`);
  }
  return value as Json;
}
