import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { float32ToBlob } from "../../recall/vector-math.js";
import { SqliteMemory } from "../sqlite-memory.js";
import { tempDir } from "../test-support/temp-memory.js";
import { SCHEMA_VERSION } from "./schema.js";

// The seed's older shape: TEXT ids, a global UNIQUE(key), an external-content FTS5 table kept by
// triggers, and an embedding cache without provider/model columns.
const LEGACY_SCHEMA = `
CREATE TABLE memories (
  id TEXT PRIMARY KEY,
  key TEXT NOT NULL UNIQUE,
  content TEXT NOT NULL,
  category TEXT NOT NULL DEFAULT 'core',
  embedding BLOB,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE VIRTUAL TABLE memories_fts USING fts5(key, content, content=memories, content_rowid=rowid);
CREATE TRIGGER memories_ai AFTER INSERT ON memories BEGIN
  INSERT INTO memories_fts(rowid, key, content) VALUES (new.rowid, new.key, new.content);
END;
CREATE TRIGGER memories_ad AFTER DELETE ON memories BEGIN
  INSERT INTO memories_fts(memories_fts, rowid, key, content) VALUES ('delete', old.rowid, old.key, old.content);
END;
CREATE TRIGGER memories_au AFTER UPDATE ON memories BEGIN
  INSERT INTO memories_fts(memories_fts, rowid, key, content) VALUES ('delete', old.rowid, old.key, old.content);
  INSERT INTO memories_fts(rowid, key, content) VALUES (new.rowid, new.key, new.content);
END;
CREATE TABLE embedding_cache (
  content_hash TEXT PRIMARY KEY,
  embedding BLOB,
  created_at TEXT,
  accessed_at TEXT
);
`;

const LEGACY_VECTOR = new Float32Array([0.25, -0.5, 0.125]);

interface LegacyRow {
  id: string;
  key: string;
  content: string;
  category: string;
  embedding: Buffer | null;
  created_at: string;
  updated_at: string;
}

const LEGACY_ROWS: LegacyRow[] = [
  {
    id: "legacy-1",
    key: "deploy_policy",
    content: "Deploys happen on Tuesdays after the release review",
    category: "core",
    embedding: null,
    created_at: "2024-03-01 10:00:00",
    updated_at: "2024-03-01 10:00:00",
  },
  {
    id: "legacy-2",
    key: "fruit_preference",
    content: "我最喜欢的水果是苹果",
    category: "core",
    embedding: null,
    created_at: "2024-03-02T08:30:00Z",
    updated_at: "2024-03-02T09:45:00Z",
  },
  {
    id: "legacy-3",
    key: "vector_note",
    content: "This note arrived with a stored embedding vector",
    category: "daily",
    embedding: float32ToBlob(LEGACY_VECTOR),
    created_at: "2024-03-03T12:00:00.000Z",
    updated_at: "2024-03-03T12:00:00.000Z",
  },
];

function buildLegacyDatabase(): string {
  const path = join(tempDir(), "brain.db");
  const db = new Database(path);
  try {
    db.exec(LEGACY_SCHEMA);
    const insert = db.prepare(
      `INSERT INTO memories (id, key, content, category, embedding, created_at, updated_at)
       VALUES (@id, @key, @content, @category, @embedding, @created_at, @updated_at)`,
    );
    for (const row of LEGACY_ROWS) insert.run(row);
    db.prepare("INSERT INTO embedding_cache VALUES (?, ?, ?, ?)").run(
      "0123456789abcdef",
      float32ToBlob(LEGACY_VECTOR),
      "2024-03-01 10:00:00",
      "2024-03-01 10:00:00",
    );
  } finally {
    db.close();
  }
  return path;
}

/** Reads the file with a plain connection (no extension, no migration). */
function inspect<T>(path: string, read: (db: Database.Database) => T): T {
  const db = new Database(path, { readonly: true });
  try {
    return read(db);
  } finally {
    db.close();
  }
}

function columnsOf(path: string, table: string): string[] {
  return inspect(path, (db) =>
    (db.prepare(`PRAGMA table_info(${table})`).all() as Array<{ name: string }>).map((c) => c.name),
  );
}

interface MigratedRow {
  rid: number;
  id: string;
  key: string;
  content: string;
  category: string;
  namespace: string;
  created_at: string;
  updated_at: string;
  embedding: Buffer | null;
  embedding_content_hash: string | null;
}

function migratedRows(path: string): MigratedRow[] {
  return inspect(
    path,
    (db) =>
      db
        .prepare(
          `SELECT rid, id, key, content, category, namespace, created_at, updated_at, embedding,
                  embedding_content_hash FROM memories ORDER BY id`,
        )
        .all() as MigratedRow[],
  );
}

async function openAndClose(path: string): Promise<void> {
  const memory = SqliteMemory.open({ path });
  await memory.close();
}

describe("opening a database of the seed's older shape", () => {
  it("adds the new columns, keeps every row and normalises the times", async () => {
    const path = buildLegacyDatabase();
    await openAndClose(path);
    await openAndClose(path);

    const columns = columnsOf(path, "memories");
    for (const column of [
      "session_id",
      "namespace",
      "importance",
      "superseded_by",
      "embedding_content_hash",
    ]) {
      expect(columns).toContain(column);
    }
    const rows = migratedRows(path);
    expect(
      rows.map(({ id, key, content, category, namespace, created_at, updated_at }) => ({
        id,
        key,
        content,
        category,
        namespace,
        created_at,
        updated_at,
      })),
    ).toEqual([
      {
        id: "legacy-1",
        key: "deploy_policy",
        content: "Deploys happen on Tuesdays after the release review",
        category: "core",
        namespace: "default",
        created_at: "2024-03-01T10:00:00.000Z",
        updated_at: "2024-03-01T10:00:00.000Z",
      },
      {
        id: "legacy-2",
        key: "fruit_preference",
        content: "我最喜欢的水果是苹果",
        category: "core",
        namespace: "default",
        created_at: "2024-03-02T08:30:00.000Z",
        updated_at: "2024-03-02T09:45:00.000Z",
      },
      {
        id: "legacy-3",
        key: "vector_note",
        content: "This note arrived with a stored embedding vector",
        category: "daily",
        namespace: "default",
        created_at: "2024-03-03T12:00:00.000Z",
        updated_at: "2024-03-03T12:00:00.000Z",
      },
    ]);
  });

  it("keeps a stored embedding blob byte for byte and marks which content it belongs to", async () => {
    const path = buildLegacyDatabase();
    await openAndClose(path);

    const [plain, , withVector] = migratedRows(path);
    expect(plain?.embedding).toBeNull();
    expect(plain?.embedding_content_hash).toBeNull();
    expect(withVector?.embedding).toEqual(float32ToBlob(LEGACY_VECTOR));
    expect(withVector?.embedding_content_hash).toMatch(/^[0-9a-f]{16}$/);
  });

  it("records the current schema version", async () => {
    const path = buildLegacyDatabase();
    await openAndClose(path);

    const version = inspect(
      path,
      (db) => db.prepare("SELECT value FROM meta WHERE key = 'schema_version'").get() as { value: string },
    );
    expect(version.value).toBe(String(SCHEMA_VERSION));
  });

  it("a second open changes nothing: same rows, same row ids, same version", async () => {
    const path = buildLegacyDatabase();
    await openAndClose(path);
    const afterFirst = migratedRows(path);
    await openAndClose(path);
    const afterSecond = migratedRows(path);

    expect(afterFirst).toHaveLength(LEGACY_ROWS.length);
    expect(afterSecond).toEqual(afterFirst);
    const memory = SqliteMemory.open({ path });
    try {
      expect(await memory.count()).toBe(LEGACY_ROWS.length);
      expect((await memory.status()).schemaVersion).toBe(SCHEMA_VERSION);
    } finally {
      await memory.close();
    }
  });

  it("the migrated rows are found by keyword, CJK included", async () => {
    const path = buildLegacyDatabase();
    await openAndClose(path);
    const memory = SqliteMemory.open({ path });
    try {
      const english = await memory.recall("Tuesdays");
      expect(english.map((e) => e.key)).toEqual(["deploy_policy"]);
      const cjk = await memory.recall("苹果");
      expect(cjk.map((e) => e.key)).toEqual(["fruit_preference"]);
      expect(cjk[0]?.content).toBe("我最喜欢的水果是苹果");
      const byKey = await memory.get("vector_note");
      expect(byKey?.id).toBe("legacy-3");
      expect(byKey?.createdAt).toBe("2024-03-03T12:00:00.000Z");
    } finally {
      await memory.close();
    }
  });

  it("the old keyword index is replaced and stays in sync with later writes and deletes", async () => {
    const path = buildLegacyDatabase();
    await openAndClose(path);
    const memory = SqliteMemory.open({ path });
    try {
      expect(await memory.forget("deploy_policy")).toBe(true);
      expect(await memory.recall("Tuesdays")).toEqual([]);
      await memory.store("deploy_policy", "Deploys now happen on Thursdays");
      expect((await memory.recall("Thursdays")).map((e) => e.key)).toEqual(["deploy_policy"]);
    } finally {
      await memory.close();
    }
    const triggers = inspect(path, (db) =>
      (
        db.prepare("SELECT name FROM sqlite_master WHERE type = 'trigger' ORDER BY name").all() as Array<{
          name: string;
        }>
      ).map((t) => t.name),
    );
    // The seed's triggers are gone, and since version 3 the index is kept without any trigger.
    expect(triggers).toEqual([]);
  });

  it("drops the global UNIQUE(key): the same key can live in two namespaces", async () => {
    const path = buildLegacyDatabase();
    await openAndClose(path);
    const memory = SqliteMemory.open({ path });
    try {
      const team = await memory.store("deploy_policy", "The team deploys on Mondays", { namespace: "team" });

      expect(team.namespace).toBe("team");
      expect((await memory.get("deploy_policy"))?.content).toBe(
        "Deploys happen on Tuesdays after the release review",
      );
      expect((await memory.get("deploy_policy", { namespace: "team" }))?.content).toBe(
        "The team deploys on Mondays",
      );
      expect(await memory.count()).toBe(LEGACY_ROWS.length + 1);
      expect(await memory.count({ namespace: "default" })).toBe(LEGACY_ROWS.length);
    } finally {
      await memory.close();
    }
  });

  it("drops the old embedding cache rows and gives the table its new columns", async () => {
    const path = buildLegacyDatabase();
    await openAndClose(path);
    await openAndClose(path);

    expect(columnsOf(path, "embedding_cache").sort()).toEqual(
      ["accessed_at", "content_hash", "created_at", "embedding", "model", "provider"].sort(),
    );
    const cached = inspect(
      path,
      (db) => (db.prepare("SELECT count(*) AS n FROM embedding_cache").get() as { n: number }).n,
    );
    expect(cached).toBe(0);
  });
});
