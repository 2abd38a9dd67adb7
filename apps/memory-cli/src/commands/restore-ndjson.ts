// `restore FILE` on PostgreSQL: the NDJSON a PostgreSQL backup (or `export --embeddings`) wrote,
// put back into the store: its entry lines imported, then its history lines (`{"history": …}`,
// every version of every key) given to memory.replaceHistory(). The file is read a line at a time,
// three times: every line is checked first (one bad line restores nothing), then the entries are
// imported in chunks, then the history is put back in chunks of whole keys, each one transaction.
import { createHash } from "node:crypto";
import { createReadStream, existsSync, statSync } from "node:fs";
import { open } from "node:fs/promises";
import { createInterface } from "node:readline";
import type { Memory, MemoryEntry, MemoryVersion } from "@claw/memory-api";
import { MemoryError } from "@claw/memory-api";
import type { VersionProblem } from "@claw/memory-core";
import type { CliContext } from "../cli-context.js";
import type { Progress } from "../output/progress.js";

/** Entries per import(), versions (at least, whole keys) per replaceHistory(): one transaction each. */
const CHUNK = 1000;
/** Bad lines named on stderr, at most. */
const REPORTED = 20;

/** A line of the file: its number, and its entry, its version or why it is neither. */
type Line =
  | { line: number; entry: Partial<MemoryEntry> }
  | { line: number; version: unknown }
  | { line: number; error: string };

type Problem = { line: number; message: string };

export async function restoreNdjson(
  ctx: CliContext,
  file: string,
  force: boolean,
  progress: Progress | undefined,
): Promise<void> {
  await checkFile(file);
  const config = await ctx.loadConfig();
  const { validateEntries, validateVersions } = await import("@claw/memory-core");
  const problems: Problem[] = [];
  const history = historyCheck((run) => validateVersions(run, config.memory), problems);
  let total = 0;
  let versions = 0;
  for await (const chunk of chunks(file)) {
    const good = chunk.filter((l): l is Extract<Line, { entry: unknown }> => "entry" in l);
    for (const l of chunk) {
      if ("error" in l) problems.push({ line: l.line, message: l.error });
      if ("version" in l) {
        history.add(l.line, l.version);
        versions += 1;
      }
    }
    for (const { index, error } of validateEntries(
      good.map((l) => l.entry),
      config.memory,
    )) {
      problems.push({ line: (good[index] as { line: number }).line, message: error.message });
    }
    total += good.length;
  }
  history.end();
  if (problems.length > 0) {
    problems.sort((a, b) => a.line - b.line);
    for (const p of problems.slice(0, REPORTED)) ctx.deps.stderr.write(`line ${p.line}: ${p.message}\n`);
    throw MemoryError.invalidInput(
      "file",
      `${file}: ${problems.length} invalid line(s), nothing restored (a PostgreSQL store restores the NDJSON \`claw-memory backup\` or \`export --embeddings\` writes)`,
    );
  }

  const memory = await ctx.memory();
  if (versions > 0 && memory.replaceHistory === undefined)
    throw new MemoryError("UNAVAILABLE", `the ${memory.name} store cannot take back the history in ${file}`);
  const existing = await memory.count();
  if (existing > 0 && !force) {
    throw new MemoryError(
      "CONFLICT",
      `the store holds ${existing} ${existing === 1 ? "entry" : "entries"}: pass --force to import the backup over it (entries with the same key are replaced, the others kept)`,
    );
  }
  let restored = 0;
  for await (const chunk of chunks(file)) {
    restored += await memory.import(
      chunk.flatMap((l) => ("entry" in l ? [l.entry] : [])),
      { onConflict: "replace" },
    );
    progress?.update(restored, total + versions);
  }
  const restoredVersions =
    versions === 0
      ? 0
      : await restoreHistory(memory, file, (done) => progress?.update(total + done, total + versions));
  progress?.finish();
  const path = (await memory.status()).path;
  ctx.result(
    { file, path, entries: restored, versions: restoredVersions, existing, upsert: existing > 0 },
    () => {
      const what =
        versions === 0
          ? `${restored} ${restored === 1 ? "memory" : "memories"}`
          : `${restored} ${restored === 1 ? "memory" : "memories"} and ${restoredVersions} ${restoredVersions === 1 ? "version" : "versions"} of their history`;
      const lines = [`restored ${what} from ${file} into ${path ?? "the store"}`];
      if (existing > 0) {
        lines.push(
          `imported over the ${existing} existing (--force): entries with the same key were replaced, the others kept`,
        );
      }
      if (restoredVersions < versions) {
        lines.push(
          `${versions - restoredVersions} versions of keys live in this store but deleted in the backup were left out: those keep their own history`,
        );
      }
      return lines.join("\n");
    },
  );
}

/**
 * The history lines given back, CHUNK versions or more at a time, cut between keys (replaceHistory
 * replaces a key's history with what one call gives; it waits for the vectors the import queued).
 */
async function restoreHistory(memory: Memory, file: string, onDone: (done: number) => void): Promise<number> {
  const replace = memory.replaceHistory?.bind(memory);
  if (replace === undefined) return 0;
  let restored = 0;
  let done = 0;
  let batch: unknown[] = [];
  let batchKey: string | undefined;
  const send = async () => {
    restored += await replace(batch as MemoryVersion[]);
    done += batch.length;
    batch = [];
    onDone(done);
  };
  for await (const chunk of chunks(file)) {
    for (const l of chunk) {
      if (!("version" in l)) continue;
      const key = keyOf(l.version);
      if (batch.length >= CHUNK && key !== batchKey) await send();
      batch.push(l.version);
      batchKey = key;
    }
  }
  if (batch.length > 0) await send();
  return restored;
}

/**
 * Checks the history lines a key at a time, as replaceHistory() will (one current version at most,
 * the newest; no number twice), and that each key's lines are consecutive, as a backup writes them
 * (restored in chunks of whole keys, a key met again later would replace what came before). Keys
 * whose lines ended are remembered by a short hash.
 */
function historyCheck(check: (run: unknown[]) => VersionProblem[], problems: Problem[]) {
  let run: Array<{ line: number; version: unknown }> = [];
  let runKey: string | undefined;
  const ended = new Set<string>();
  const close = () => {
    for (const { index, error } of check(run.map((r) => r.version))) {
      problems.push({ line: (run[index] as { line: number }).line, message: `history.${error.message}` });
    }
    run = [];
    if (runKey !== undefined) ended.add(digest(runKey));
  };
  return {
    add(line: number, version: unknown) {
      const key = keyOf(version);
      if (key !== runKey) {
        close();
        runKey = key;
        if (ended.has(digest(key))) {
          problems.push({
            line,
            message: `history: the versions of one key must be on consecutive lines, as a backup writes them (${key} came earlier)`,
          });
        }
      }
      run.push({ line, version });
    },
    end: close,
  };
}

/** A version's (namespace, key), as text. */
function keyOf(version: unknown): string {
  const { namespace, key } = (version ?? {}) as { namespace?: unknown; key?: unknown };
  return JSON.stringify([namespace, key]);
}

function digest(text: string): string {
  return createHash("sha256").update(text).digest("base64").slice(0, 16);
}

/** INVALID_INPUT naming `file` when it is missing, not a file, or a SQLite database. */
async function checkFile(file: string): Promise<void> {
  if (!existsSync(file)) throw MemoryError.invalidInput("file", `${file}: no such file`);
  if (!statSync(file).isFile()) throw MemoryError.invalidInput("file", `${file}: not a file`);
  const handle = await open(file, "r");
  try {
    const { bytesRead, buffer } = await handle.read(Buffer.alloc(16), 0, 16, 0);
    if (bytesRead === 16 && buffer.toString("latin1") === "SQLite format 3\0") {
      throw MemoryError.invalidInput(
        "file",
        `${file} is a SQLite database, and this store is PostgreSQL: restore it into a SQLite workspace, then \`claw-memory migrate --from sqlite --to postgres\``,
      );
    }
  } finally {
    await handle.close();
  }
}

/** The file's lines, parsed, CHUNK at a time (blank lines skipped). */
async function* chunks(file: string): AsyncGenerator<Line[]> {
  const { isHistoryLine } = await import("@claw/memory-core");
  let chunk: Line[] = [];
  let line = 0;
  for await (const text of createInterface({
    input: createReadStream(file),
    crlfDelay: Number.POSITIVE_INFINITY,
  })) {
    line += 1;
    if (text.trim() === "") continue;
    try {
      const value: unknown = JSON.parse(text);
      chunk.push(
        isHistoryLine(value)
          ? { line, version: value.history }
          : { line, entry: value as Partial<MemoryEntry> },
      );
    } catch (error) {
      chunk.push({ line, error: `not valid JSON: ${(error as Error).message}` });
    }
    if (chunk.length >= CHUNK) {
      yield chunk;
      chunk = [];
    }
  }
  if (chunk.length > 0) yield chunk;
}
