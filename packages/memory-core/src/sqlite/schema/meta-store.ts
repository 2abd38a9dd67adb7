import type { Database } from "better-sqlite3";

/** Typed access to the `meta` key/value table. */
export interface MetaStore {
  get(key: string): string | undefined;
  set(key: string, value: string): void;
  delete(key: string): void;
}

export function createMetaStore(db: Database): MetaStore {
  const select = db.prepare<[string], { value: string }>("SELECT value FROM meta WHERE key = ?");
  const upsert = db.prepare<[string, string]>(
    "INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
  );
  const remove = db.prepare<[string]>("DELETE FROM meta WHERE key = ?");
  return {
    get: (key) => select.get(key)?.value,
    set: (key, value) => {
      upsert.run(key, value);
    },
    delete: (key) => {
      remove.run(key);
    },
  };
}
