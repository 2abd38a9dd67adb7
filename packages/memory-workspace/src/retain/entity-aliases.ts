// Entity aliases: the names an entity page declares for its entity, resolved wherever entities compare.
import type { Logger } from "@claw/memory-api";
import { type EntityPageFile, readEntityPages } from "../files/read-entity-pages.js";
import { aliasesDeclaredIn } from "./alias-syntax.js";
import { entityKey } from "./fact-format.js";

export interface EntityAliases {
  /** entityKey of an alias, or of a declaring page's own name → that page's canonical name. */
  readonly names: ReadonlyMap<string, string>;
  /** entityKey of a canonical name → its page, workspace-relative (`bank/entities/<file>.md`). */
  readonly pages: ReadonlyMap<string, string>;
}

/** An alias two pages declare (or a page's name another page declares): the first claim keeps it. */
export interface AliasConflict {
  /** The alias as the ignored page wrote it. */
  alias: string;
  /** The page that keeps the alias. */
  kept: string;
  /** The page whose claim is ignored. */
  ignored: string;
}

export const NO_ALIASES: EntityAliases = Object.freeze({ names: new Map(), pages: new Map() });

/** The canonical name of a page: its file name without `.md` (NFC), the name reflect() wrote it under. */
export function pageEntityName(path: string): string {
  const file = path.slice(path.lastIndexOf("/") + 1);
  return file.replace(/\.md$/i, "").normalize("NFC");
}

/**
 * The alias map of these pages, in the order given (sorted by path). Only pages declaring at least
 * one alias take part, so entities without aliases compare exactly as before. Each such page first
 * claims its own name, then its aliases; a claim already taken by another page is a conflict,
 * reported and ignored: a page's own name wins over another page's alias, and between two pages the
 * one earlier in path order wins.
 */
export function buildEntityAliases(
  pages: readonly EntityPageFile[],
  report: (conflict: AliasConflict) => void,
): EntityAliases {
  const declaring = pages.flatMap((page) => {
    const name = pageEntityName(page.path);
    const own = entityKey(name);
    const aliases = aliasesDeclaredIn(page.text).filter((a) => entityKey(a) !== own && entityKey(a) !== "");
    return own === "" || aliases.length === 0 ? [] : [{ path: page.path, name, aliases }];
  });
  const owner = new Map<string, { path: string; name: string }>();
  const accepted = declaring.filter((page) => {
    const holder = owner.get(entityKey(page.name));
    if (holder !== undefined) {
      report({ alias: page.name, kept: holder.path, ignored: page.path });
      return false;
    }
    owner.set(entityKey(page.name), page);
    return true;
  });
  for (const page of accepted) {
    for (const alias of page.aliases) {
      const key = entityKey(alias);
      const holder = owner.get(key);
      if (holder === undefined) owner.set(key, page);
      else if (holder.path !== page.path) report({ alias, kept: holder.path, ignored: page.path });
    }
  }
  const names = new Map<string, string>();
  for (const [key, page] of owner) names.set(key, page.name);
  const paths = new Map(accepted.map((page) => [entityKey(page.name), page.path]));
  return { names, pages: paths };
}

/** The key `name` compares by: its canonical name's entityKey when aliased, else its own. */
export function comparisonKey(aliases: EntityAliases, name: string): string {
  const key = entityKey(name);
  const canonical = aliases.names.get(key);
  return canonical === undefined ? key : entityKey(canonical);
}

/** The canonical name `name` resolves to, when an alias page names it. */
export function canonicalNameOf(aliases: EntityAliases, name: string): string | undefined {
  return aliases.names.get(entityKey(name));
}

/**
 * Reads the workspace's alias map afresh on each call, so an alias added to a page counts from the
 * next call on. Each conflict is logged once (a warning) for the life of the loader.
 */
export function entityAliasLoader(workspaceDir: string, logger: Logger): () => Promise<EntityAliases> {
  const reported = new Set<string>();
  const report = (conflict: AliasConflict) => {
    const id = [entityKey(conflict.alias), conflict.kept, conflict.ignored].join("\0");
    if (reported.has(id)) return;
    reported.add(id);
    logger.warn("entity aliases: a name is claimed by two entity pages; the first claim keeps it", {
      ...conflict,
    });
  };
  return async () => buildEntityAliases(await readEntityPages(workspaceDir, logger), report);
}
