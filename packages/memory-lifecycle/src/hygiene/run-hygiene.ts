import type { HygieneReport, Memory, MemoryEntry, RetentionConfig } from "@claw/memory-api";
import { MemoryError } from "@claw/memory-api";
import { settingsOf, workspaceOf } from "../support/memory-defaults.js";
import { readHygieneState, writeHygieneState } from "./hygiene-state.js";
import { type CategoryRetention, planPrune } from "./prune-plan.js";

/** Options of runHygiene: retention overrides, and whether to run before the interval has passed. */
export interface HygieneOptions extends Partial<RetentionConfig> {
  /** Run even when the last run was less than the interval ago. */
  force?: boolean;
  now?: Date;
  /** Where memory_hygiene_state.json lives; default the workspace (the database's folder). */
  workspaceDir?: string;
  /** Hours between runs; default the memory's `hygiene_interval_hours` (12). */
  intervalHours?: number;
  /** Custom categories are never pruned unless listed here. */
  customRetention?: Record<string, CategoryRetention>;
}

/**
 * Periodic clean-up (seed 000): every `intervalHours`, deletes Conversation and Daily entries past
 * their retention days, oldest first, keeping each category's floor of non-superseded entries per
 * namespace; superseded entries are pruned once expired and never count toward a floor. Entries
 * whose own `expiresAt` has passed are deleted whatever their category. Core is
 * never pruned; custom categories only when `customRetention` names them. All deletions happen in
 * one transaction; the run and its report are saved in memory_hygiene_state.json.
 */
export async function runHygiene(memory: Memory, options: HygieneOptions = {}): Promise<HygieneReport> {
  const settings = settingsOf(memory);
  const now = options.now ?? new Date();
  const intervalHours = options.intervalHours ?? settings.hygieneIntervalHours;
  const retention = retentionOf(options, settings);
  const workspaceDir = await workspaceOf(memory, options.workspaceDir);

  const state = workspaceDir === undefined ? null : await readHygieneState(workspaceDir);
  const report: HygieneReport = {
    ran: false,
    at: now.toISOString(),
    previousRunAt: state?.lastRunAt,
    pruned: {},
    prunedSuperseded: 0,
    keptByFloor: 0,
    expired: 0,
    deletedKeys: [],
  };
  const due =
    options.force === true ||
    state === null ||
    now.getTime() - Date.parse(state.lastRunAt) >= intervalHours * 3_600_000;
  if (!due) return report;

  const toDelete: MemoryEntry[] = [];
  for (const [category, rule] of Object.entries(retention)) {
    const byNamespace = groupBy(await memory.export({ category }), (e) => e.namespace);
    for (const entries of byNamespace.values()) {
      const plan = planPrune(entries, rule, now);
      toDelete.push(...plan.delete);
      report.pruned[category] = (report.pruned[category] ?? 0) + plan.delete.length;
      report.prunedSuperseded += plan.prunedSuperseded;
      report.keptByFloor += plan.keptByFloor;
    }
  }
  await memory.forgetMany(
    toDelete.map((e) => ({ key: e.key, namespace: e.namespace })),
    { actor: "hygiene", action: "prune" },
  );
  report.expired = await memory.purgeExpired({ actor: "hygiene" });
  report.ran = true;
  report.deletedKeys = toDelete.map((e) => `${e.namespace}/${e.key}`);
  if (workspaceDir !== undefined)
    await writeHygieneState(workspaceDir, { lastRunAt: report.at, lastReport: report });
  return report;
}

function retentionOf(
  options: HygieneOptions,
  settings: ReturnType<typeof settingsOf>,
): Record<string, CategoryRetention> {
  const floorOf = (specific: number | undefined) =>
    specific ?? options.minRetentionFloor ?? settings.minRetentionFloor ?? 0;
  const rules: Record<string, CategoryRetention> = {
    conversation: {
      days: options.conversationRetentionDays ?? settings.conversationRetentionDays,
      floor: floorOf(options.conversationRetentionFloor ?? settings.conversationRetentionFloor),
    },
    daily: {
      days: options.dailyRetentionDays ?? settings.dailyRetentionDays,
      floor: floorOf(options.dailyRetentionFloor ?? settings.dailyRetentionFloor),
    },
  };
  for (const [category, rule] of Object.entries(options.customRetention ?? {})) {
    if (category === "core")
      throw MemoryError.invalidInput("customRetention.core", "core memories are never pruned");
    rules[category] = rule;
  }
  for (const [category, rule] of Object.entries(rules)) {
    if (!(rule.days >= 0) || !Number.isFinite(rule.days))
      throw MemoryError.invalidInput(`${category}RetentionDays`, "expected a non-negative number of days");
    if (!Number.isInteger(rule.floor) || rule.floor < 0)
      throw MemoryError.invalidInput(`${category}RetentionFloor`, "expected a non-negative integer");
  }
  return rules;
}

function groupBy<T>(items: readonly T[], keyOf: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return groups;
}
