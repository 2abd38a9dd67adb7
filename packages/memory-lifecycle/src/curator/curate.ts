import type { CurateReport, Memory, MemoryEntry, MergeGroup, TextGenerator } from "@claw/memory-api";
import { MemoryError } from "@claw/memory-api";
import { CURATOR_SYSTEM_PROMPT, curatorPrompt } from "./curator-prompt.js";
import { type CuratorProposal, parseCuratorAnswer } from "./curator-proposal.js";

/** Options of curate: dry run, how much one run may remove, and the generator to ask. */
export interface CurateOptions {
  /** Report what would change, change nothing. */
  dryRun?: boolean;
  /** At most this many entries removed in one run (deletions and merged-away entries);
   *  default 10% of the entries looked at, rounded down. */
  maxDeletions?: number;
  /** Only this namespace; default every namespace, each curated on its own. */
  namespace?: string;
  /** Entries per request to the generator (default 100). */
  pageSize?: number;
  signal?: AbortSignal;
  now?: Date;
}

/**
 * LLM curation (seed 000): gathers Core and Daily memories (not superseded ones), asks the
 * generator page by page which to delete and which to merge, and applies only what checks out:
 * known keys of that page, no core entry deleted except by merging it into a survivor, at most
 * `maxDeletions` removals, each key used once. A malformed answer changes nothing for its page and
 * is reported in `errors`.
 */
export async function curate(
  memory: Memory,
  generator: TextGenerator,
  options: CurateOptions = {},
): Promise<CurateReport> {
  if (generator === null || typeof generator?.generate !== "function")
    throw MemoryError.invalidInput("generator", "expected a TextGenerator");
  const pageSize = options.pageSize ?? 100;
  if (!Number.isInteger(pageSize) || pageSize < 1)
    throw MemoryError.invalidInput("pageSize", "expected a positive integer");
  const gathered = (
    await Promise.all(
      ["core", "daily"].map((category) =>
        memory.export({
          category,
          ...(options.namespace === undefined ? {} : { namespace: options.namespace }),
        }),
      ),
    )
  )
    .flat()
    .filter((e) => e.supersededBy === undefined);
  const cap = options.maxDeletions ?? Math.floor(gathered.length * 0.1);
  if (!Number.isInteger(cap) || cap < 0)
    throw MemoryError.invalidInput("maxDeletions", "expected a non-negative integer");

  const report: CurateReport = {
    deleted: [],
    merged: [],
    totalBefore: gathered.length,
    totalAfter: gathered.length,
    dryRun: options.dryRun === true,
    refused: [],
    errors: [],
  };
  const removals: MemoryEntry[] = [];
  const survivors: Array<Partial<MemoryEntry>> = [];
  for (const page of pages(gathered, pageSize)) {
    options.signal?.throwIfAborted();
    let answer: string;
    try {
      answer = await generator.generate({
        system: CURATOR_SYSTEM_PROMPT,
        prompt: curatorPrompt(page),
        json: true,
        signal: options.signal,
      });
    } catch (error) {
      if (options.signal?.aborted) throw error;
      report.errors.push(`the generator failed: ${(error as Error).message}`);
      continue;
    }
    const proposal = parseCuratorAnswer(answer);
    if (typeof proposal === "string") {
      report.errors.push(proposal);
      continue;
    }
    const room = () => cap - removals.length;
    applyProposal(
      page,
      proposal,
      room,
      report,
      removals,
      survivors,
      (options.now ?? new Date()).toISOString(),
    );
  }

  if (!report.dryRun) {
    // Survivors first: a crash in between leaves a duplicate, never a lost fact. Each entry's
    // history says the curator merged it (survivors and merged-away ones) or deleted it.
    if (survivors.length > 0) await memory.import(survivors, { actor: "curator", action: "merge" });
    const mergedAway = new Set(
      report.merged.flatMap((group) =>
        group.keys.filter((k) => k !== group.into).map((k) => `${group.namespace}\u0000${k}`),
      ),
    );
    const isMerged = (e: MemoryEntry) => mergedAway.has(`${e.namespace}\u0000${e.key}`);
    const refs = (entries: MemoryEntry[]) => entries.map((e) => ({ key: e.key, namespace: e.namespace }));
    await memory.forgetMany(refs(removals.filter(isMerged)), { actor: "curator", action: "merge" });
    await memory.forgetMany(refs(removals.filter((e) => !isMerged(e))), { actor: "curator" });
  }
  report.totalAfter = gathered.length - removals.length;
  return report;
}

function applyProposal(
  page: readonly MemoryEntry[],
  proposal: CuratorProposal,
  room: () => number,
  report: CurateReport,
  removals: MemoryEntry[],
  survivors: Array<Partial<MemoryEntry>>,
  now: string,
): void {
  const byKey = new Map(page.map((e) => [e.key, e]));
  const used = new Set<string>();
  for (const group of proposal.merge) {
    const keys = [...new Set(group.keys)];
    const entries = keys.flatMap((k) => byKey.get(k) ?? []);
    const label = `merge [${keys.join(", ")}]`;
    if (entries.length !== keys.length) {
      report.refused.push(`${label}: unknown keys ${keys.filter((k) => !byKey.has(k)).join(", ")}`);
      continue;
    }
    if (entries.length < 2) {
      report.refused.push(`${label}: a merge needs at least two entries`);
      continue;
    }
    if (keys.some((k) => used.has(k))) {
      report.refused.push(`${label}: a key is already in another change`);
      continue;
    }
    if (entries.length - 1 > room()) {
      report.refused.push(`${label}: over the deletion cap`);
      continue;
    }
    // A core entry survives when there is one, so merging never demotes a core memory.
    const survivor = entries.find((e) => e.category === "core") ?? (entries[0] as MemoryEntry);
    const importance = Math.max(...entries.map((e) => e.importance ?? 0));
    const { score: _s, embedding: _e, ...kept } = survivor;
    survivors.push({ ...kept, content: group.content, importance, updatedAt: now });
    for (const e of entries) {
      used.add(e.key);
      if (e !== survivor) removals.push(e);
    }
    report.merged.push({
      keys,
      into: survivor.key,
      content: group.content,
      namespace: survivor.namespace,
    } satisfies MergeGroup);
  }
  for (const key of new Set(proposal.delete)) {
    const entry = byKey.get(key);
    if (entry === undefined) report.refused.push(`delete ${key}: unknown key`);
    else if (used.has(key)) report.refused.push(`delete ${key}: already in another change`);
    else if (entry.category === "core")
      report.refused.push(`delete ${key}: core memories are only removed by merging`);
    else if (room() <= 0) report.refused.push(`delete ${key}: over the deletion cap`);
    else {
      used.add(key);
      removals.push(entry);
      report.deleted.push(key);
    }
  }
}

/** Pages of at most `size` entries, never mixing namespaces (keys are unique only within one). */
function* pages(entries: readonly MemoryEntry[], size: number): Generator<MemoryEntry[]> {
  const byNamespace = new Map<string, MemoryEntry[]>();
  for (const e of entries) {
    const group = byNamespace.get(e.namespace);
    if (group) group.push(e);
    else byNamespace.set(e.namespace, [e]);
  }
  for (const group of byNamespace.values()) {
    for (let i = 0; i < group.length; i += size) yield group.slice(i, i + size);
  }
}
