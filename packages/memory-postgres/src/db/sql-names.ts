import { MemoryError } from "@claw/memory-api";

/** The schema-qualified names of claw-memory's tables: every statement names its schema, so stores
 *  in different schemas can share one database (and one connection) without `search_path`. */
export interface SqlNames {
  schema: string;
  memories: string;
  meta: string;
  cache: string;
  /** The sequence that was the change stamp until schema version 7 (still read: db/change-stamp.ts). */
  changes: string;
  /** One change counter per backend process; their sum is the change stamp (db/change-stamp.ts). */
  changeCounts: string;
  /** Every earlier state of an entry and a tombstone per deletion (store/version-history.ts). */
  versions: string;
  /** The trigger function that keeps an overwritten state as a version. */
  archiveFunction: string;
  /** For advisory locks and index names. */
  raw: string;
}

const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;

export function sqlNames(schema: string): SqlNames {
  if (!IDENTIFIER.test(schema)) {
    throw MemoryError.invalidInput(
      "schema",
      `expected an SQL name (lower case letters, digits and _), got ${JSON.stringify(schema)}`,
    );
  }
  const q = `"${schema}"`;
  return {
    schema: q,
    memories: `${q}.claw_memories`,
    meta: `${q}.claw_meta`,
    cache: `${q}.claw_embedding_cache`,
    changes: `${q}.claw_changes`,
    changeCounts: `${q}.claw_change_counts`,
    versions: `${q}.claw_memory_versions`,
    archiveFunction: `${q}.claw_archive_version`,
    raw: schema,
  };
}
