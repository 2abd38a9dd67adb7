// POST /v1/admin/backup on SQLite: through inject and over a real socket, the download opened with
// better-sqlite3; admin tokens only; the temp folder removed after the response or an aborted one.
import { createWriteStream, readdirSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import { NoneMemory } from "@claw/memory-core";
import { describe, expect, it, vi } from "vitest";
import {
  ADMIN,
  bearer,
  errorOf,
  listeningServer,
  openMemory,
  READER,
  TENANT_A,
  tempWorkspace,
  testServer,
} from "../test-support/server-harness.js";
import { BACKUP_TEMP_PREFIX } from "./backup-route.js";

/** The little of better-sqlite3 these tests use. */
interface SqliteFile {
  pragma(source: string, options: { simple: true }): unknown;
  prepare(sql: string): { pluck(): { all(): unknown[] } };
  close(): void;
}
// better-sqlite3 as @claw/memory-core resolves it (this package does not depend on it itself).
const Database = createRequire(import.meta.resolve("@claw/memory-core"))("better-sqlite3") as new (
  path: string,
  options: { readonly: boolean; fileMustExist: boolean },
) => SqliteFile;

/** The backup temp folders under os.tmpdir() now. */
function tempFolders(): Set<string> {
  return new Set(readdirSync(tmpdir()).filter((name) => name.startsWith(BACKUP_TEMP_PREFIX)));
}

/** Waits until every temp folder made since `before` is gone. */
async function expectTempFoldersRemoved(before: Set<string>): Promise<void> {
  await vi.waitFor(() => expect([...tempFolders()].filter((name) => !before.has(name))).toEqual([]), {
    // The folder goes when the response has ended, after inject() resolved: generous for a busy machine.
    timeout: 50_000,
    interval: 20,
  });
}

/** integrity_check and the entries of a downloaded database file. */
function inspect(path: string): { integrity: unknown; keys: string[] } {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    return {
      integrity: db.pragma("integrity_check", { simple: true }),
      keys: db.prepare("SELECT key FROM memories ORDER BY rid").pluck().all() as string[],
    };
  } finally {
    db.close();
  }
}

async function storeOf(count: number, size = 20) {
  const memory = await openMemory();
  const filler = "x".repeat(size);
  await memory.import(
    Array.from({ length: count }, (_, i) => ({ key: `k${i}`, content: `entry ${i} ${filler}` })),
  );
  return memory;
}

describe("POST /v1/admin/backup", () => {
  it("sends the SQLite database as a named download that opens and holds every entry", async () => {
    const before = tempFolders();
    const { app } = await testServer({ memory: await storeOf(3) });
    const response = await app.inject({ method: "POST", url: "/v1/admin/backup", headers: bearer(ADMIN) });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("application/vnd.sqlite3");
    expect(response.headers["content-disposition"]).toMatch(
      /^attachment; filename="claw-memory-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ\.db"$/,
    );
    expect(response.headers["x-claw-backup-entries"]).toBe("3");
    expect(Number(response.headers["content-length"])).toBe(response.rawPayload.length);
    const file = join(tempWorkspace(), "download.db");
    writeFileSync(file, response.rawPayload);
    expect(inspect(file)).toEqual({ integrity: "ok", keys: ["k0", "k1", "k2"] });
    await expectTempFoldersRemoved(before);
  });

  it("is for admin tokens only: a scoped or read-only token gets 403 and nothing is written", async () => {
    const before = tempFolders();
    const { app } = await testServer({ memory: await storeOf(1) });
    for (const token of [TENANT_A, READER]) {
      const response = await app.inject({ method: "POST", url: "/v1/admin/backup", headers: bearer(token) });
      expect(response.statusCode).toBe(403);
      expect(errorOf(response).code).toBe("FORBIDDEN");
    }
    expect((await app.inject({ method: "POST", url: "/v1/admin/backup" })).statusCode).toBe(401);
    expect([...tempFolders()].filter((name) => !before.has(name))).toEqual([]);
  });

  it("answers 503 UNAVAILABLE for a store that cannot take a backup", async () => {
    const before = tempFolders();
    const { app } = await testServer({ memory: new NoneMemory() });
    const response = await app.inject({ method: "POST", url: "/v1/admin/backup", headers: bearer(ADMIN) });
    expect(response.statusCode).toBe(503);
    expect(errorOf(response).code).toBe("UNAVAILABLE");
    await expectTempFoldersRemoved(before);
  });

  it("streams the file over a socket: downloaded to disk, it opens with every entry", async () => {
    const before = tempFolders();
    const { url } = await listeningServer({ memory: await storeOf(2000, 200) });
    const response = await fetch(`${url}/v1/admin/backup`, { method: "POST", headers: bearer(ADMIN) });
    expect(response.status).toBe(200);
    const file = join(tempWorkspace(), "download.db");
    await pipeline(
      Readable.fromWeb(response.body as unknown as WebReadableStream<Uint8Array>),
      createWriteStream(file),
    );
    const { integrity, keys } = inspect(file);
    expect(integrity).toBe("ok");
    expect(keys).toEqual(Array.from({ length: 2000 }, (_, i) => `k${i}`));
    await expectTempFoldersRemoved(before);
  });

  it("removes its temp folder when the client goes away mid-download", async () => {
    const before = tempFolders();
    const { url } = await listeningServer({ memory: await storeOf(5000, 1500) });
    const { port } = new URL(url);
    await new Promise<void>((resolve, reject) => {
      const req = httpRequest(
        { host: "127.0.0.1", port, method: "POST", path: "/v1/admin/backup", headers: bearer(ADMIN) },
        (res) => {
          expect(res.statusCode).toBe(200);
          expect(Number(res.headers["content-length"])).toBeGreaterThan(4 * 1024 * 1024);
          // The first chunk arrived; the client leaves long before the file is sent.
          res.once("data", () => {
            req.destroy();
            resolve();
          });
        },
      );
      req.on("error", (error) => {
        if ((error as NodeJS.ErrnoException).code !== "ECONNRESET") reject(error);
      });
      req.end();
    });
    await expectTempFoldersRemoved(before);
  });
});
