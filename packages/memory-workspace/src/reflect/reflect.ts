// reflect(): entity pages and bank/opinions.md from the retained facts, written atomically.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import type { Logger, Memory, TextGenerator } from "@claw/memory-api";
import { parseTimeBound } from "@claw/memory-core";
import { ENTITIES_DIR } from "../files/workspace-paths.js";
import { writePageAtomic } from "../files/write-page.js";
import { comparisonKey, type EntityAliases, NO_ALIASES } from "../retain/entity-aliases.js";
import { readFacts } from "../retain/indexed-facts.js";
import type { ReflectOptions, ReflectReport, RetainedFact, SyncReport } from "../workspace-types.js";
import { replayOpinions } from "./opinion-ledger.js";
import { composePage, digestOf } from "./page-block.js";
import { digest, type EntityPage, entityBody, entityFileName, opinionsBody } from "./render-pages.js";

export { ENTITIES_DIR };
/** The page reflect writes opinions to, relative to the workspace. */
export const OPINIONS_PAGE = "bank/opinions.md";
const SUMMARY_MAX_CHARS = 1_200;

export interface ReflectContext {
  memory: Memory;
  workspaceDir: string;
  namespace: string;
  generator?: TextGenerator;
  logger: Logger;
  now: () => Date;
  /** Runs (or joins) a sync; reflect syncs before reading facts and after writing pages. */
  sync: () => Promise<SyncReport>;
  /** The workspace's entity aliases, read after the first sync. Default: none. */
  aliases?: () => Promise<EntityAliases>;
}

/**
 * Syncs, replays the opinions over every fact, rewrites the pages of the entities with facts
 * `since` (all of them without it) and bank/opinions.md, then syncs again so the pages are
 * searchable. A page whose generated part would not change is not touched (and the generator is
 * not asked to phrase it again), so running reflect twice writes nothing the second time. Facts
 * naming an alias go to the page that declares it.
 */
export async function reflect(context: ReflectContext, options: ReflectOptions = {}): Promise<ReflectReport> {
  const started = performance.now();
  const since = parseTimeBound(options.since, context.now(), "since");
  await context.sync();
  const [facts, aliases] = await Promise.all([
    readFacts(context.memory, context.namespace),
    context.aliases?.() ?? NO_ALIASES,
  ]);
  const opinions = replayOpinions(facts, (name) => comparisonKey(aliases, name));
  const written: string[] = [];
  const unchanged: string[] = [];
  const record = (path: string, wrote: boolean) => (wrote ? written : unchanged).push(path);

  const pages = entityPages(facts, opinions, aliases);
  for (const page of pages) {
    if (since !== undefined && !page.facts.some((fact) => fact.timestamp >= since)) continue;
    const render = (summary?: string) => entityBody(page, summary);
    record(page.path, await writePage(context, page.path, page.name, render, () => summarize(context, page)));
  }
  record(OPINIONS_PAGE, await writePage(context, OPINIONS_PAGE, "Opinions", () => opinionsBody(opinions)));

  const sync = await context.sync();
  return {
    facts: facts.length,
    entities: pages.length,
    opinions: opinions.length,
    written,
    unchanged,
    sync,
    durationMs: Math.round((performance.now() - started) * 100) / 100,
  };
}

/**
 * One page per entity, facts newest first. An entity with an alias page is named by it and written
 * to it; any other is named by the first spelling seen, in bank/entities/<entityFileName>.
 */
function entityPages(
  facts: readonly RetainedFact[],
  opinions: ReturnType<typeof replayOpinions>,
  aliases: EntityAliases,
): Array<EntityPage & { path: string }> {
  const pages = new Map<string, EntityPage & { path: string }>();
  const pageOf = (key: string, name: string) => {
    const existing = pages.get(key);
    if (existing !== undefined) return existing;
    const declared = aliases.pages.get(key);
    const page =
      declared === undefined
        ? { name, path: `${ENTITIES_DIR}/${entityFileName(name)}`, facts: [], opinions: [] }
        : { name: aliases.names.get(key) ?? name, path: declared, facts: [], opinions: [] };
    pages.set(key, page);
    return page;
  };
  const keysOf = (names: readonly string[]) =>
    new Map(names.map((name) => [comparisonKey(aliases, name), name]));
  for (const fact of facts) {
    for (const [key, name] of keysOf(fact.entities)) pageOf(key, name).facts.unshift(fact);
  }
  for (const opinion of opinions) {
    for (const key of keysOf(opinion.entities).keys()) pages.get(key)?.opinions.push(opinion);
  }
  return [...pages.values()];
}

async function writePage(
  context: ReflectContext,
  path: string,
  title: string,
  render: (summary?: string) => string,
  phrase?: () => Promise<string | undefined>,
): Promise<boolean> {
  const absPath = join(context.workspaceDir, path);
  const existing = await readFile(absPath, "utf8").catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return null;
    throw error;
  });
  // The digest covers the deterministic part only: a summary is phrased again only when it changed.
  const bodyDigest = digest(render());
  if (existing !== null && digestOf(existing) === bodyDigest) return false;
  const summary = phrase === undefined ? undefined : await phrase();
  const page = composePage(existing, title, render(summary), bodyDigest);
  if (page === existing) return false;
  await writePageAtomic(absPath, page);
  return true;
}

/** The generator's two-to-four sentence summary, or none (no generator, or it failed). */
async function summarize(context: ReflectContext, page: EntityPage): Promise<string | undefined> {
  if (context.generator === undefined) return undefined;
  const facts = page.facts.map((f) => `- ${f.date} (${f.kind}) ${f.text}`).join("\n");
  try {
    const text = await context.generator.generate({
      system:
        "You maintain an agent's memory. Summarise what these dated facts say about the entity in two to four plain sentences. Use only the facts; prefer the newest when they disagree.",
      prompt: `Entity: ${page.name}\nFacts (newest first):\n${facts}`,
    });
    const trimmed = text.trim().replace(/\s*\n\s*/g, " ");
    return trimmed === "" ? undefined : trimmed.slice(0, SUMMARY_MAX_CHARS);
  } catch (error) {
    context.logger.warn("reflect: the generator failed; the page is written without a summary", {
      entity: page.name,
      error: (error as Error).message,
    });
    return undefined;
  }
}
