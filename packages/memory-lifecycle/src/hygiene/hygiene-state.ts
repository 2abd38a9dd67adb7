import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { HygieneReport } from "@claw/memory-api";
import { writeFileAtomic } from "@claw/memory-core";

/** The file in the workspace that records when hygiene last ran. */
export const HYGIENE_STATE_FILE = "memory_hygiene_state.json";

export interface HygieneState {
  lastRunAt: string;
  lastReport: HygieneReport;
}

/** The saved state, or null when there is none or it cannot be read (then hygiene is due). */
export async function readHygieneState(workspaceDir: string): Promise<HygieneState | null> {
  let text: string;
  try {
    text = await readFile(join(workspaceDir, HYGIENE_STATE_FILE), "utf8");
  } catch {
    return null;
  }
  try {
    const state = JSON.parse(text) as Partial<HygieneState>;
    if (typeof state.lastRunAt !== "string" || Number.isNaN(Date.parse(state.lastRunAt))) return null;
    return state as HygieneState;
  } catch {
    return null;
  }
}

export async function writeHygieneState(workspaceDir: string, state: HygieneState): Promise<void> {
  await writeFileAtomic(join(workspaceDir, HYGIENE_STATE_FILE), `${JSON.stringify(state, null, 2)}\n`);
}
