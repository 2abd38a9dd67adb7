import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import type { MemoryEntry } from "@claw/memory-api";
import type { CliContext } from "../cli-context.js";
import { UsageError } from "../exit-codes.js";
import { renderMarkdownExport } from "../output/markdown-export.js";
import { readAll, timeOption, whereOption } from "./parse-options.js";

export interface ExportOptions {
  format?: string;
  out?: string;
  namespace?: string;
  category?: string;
  session?: string;
  since?: string;
  until?: string;
  embeddings?: boolean;
  where?: string[];
}

export async function exportCommand(ctx: CliContext, opts: ExportOptions) {
  const format = opts.format ?? "jsonl";
  if (!["json", "jsonl", "md"].includes(format))
    throw new UsageError(`--format expects json, jsonl or md, got ${JSON.stringify(format)}`);
  const now = ctx.deps.now();
  const memory = await ctx.memory("none");
  const filter = {
    namespace: opts.namespace,
    category: opts.category,
    sessionId: opts.session,
    since: await timeOption(opts.since, "--since", now),
    until: await timeOption(opts.until, "--until", now),
    includeEmbeddings: opts.embeddings === true,
    where: whereOption(opts.where),
  };
  let exported = 0;
  let chunks: AsyncIterable<string>;
  if (format === "md") {
    // The Markdown page groups by category: it needs every entry first.
    const entries = await memory.export(filter);
    exported = entries.length;
    chunks = (async function* () {
      yield renderMarkdownExport(entries);
    })();
  } else {
    // JSON Lines and JSON are written as the store is read, a page at a time.
    const stream = memory.exportStream(filter);
    chunks = (async function* () {
      let batch = format === "json" ? "[" : "";
      for await (const entry of stream) {
        const json = JSON.stringify(toPlain(entry), null, format === "json" ? 2 : undefined);
        batch +=
          format === "json" ? `${exported === 0 ? "\n" : ",\n"}${json.replace(/^/gm, "  ")}` : `${json}\n`;
        exported++;
        if (batch.length >= 65_536) {
          yield batch;
          batch = "";
        }
      }
      yield format === "json" ? `${batch}${exported === 0 ? "]" : "\n]"}\n` : batch;
    })();
  }
  if (opts.out === undefined) {
    for await (const chunk of chunks) ctx.deps.stdout.write(chunk);
    return;
  }
  const path = resolve(ctx.deps.cwd, opts.out);
  const { writeFileAtomic } = await import("@claw/memory-core");
  await writeFileAtomic(path, chunks);
  ctx.logger.info(`exported ${exported} memories to ${path}`);
  if (ctx.json) ctx.result({ exported, path }, () => "");
  else ctx.deps.stderr.write(`exported ${exported} memories to ${path}\n`);
}

export interface ImportOptions {
  skipInvalid?: boolean;
  skipExisting?: boolean;
}

const CHUNK = 1000;

/**
 * Imports a JSON array or JSON lines (a file, or stdin for "-" or no file). Every line is checked
 * first, the way the store will check it, and every bad one is reported by line number; unless
 * --skip-invalid, one bad line means nothing is imported. The history lines of a PostgreSQL backup
 * (`{"history": …}`) are skipped and counted: `restore` puts them back, `import` takes the entries.
 */
export async function importCommand(ctx: CliContext, file: string | undefined, opts: ImportOptions) {
  const text =
    file === undefined || file === "-"
      ? await readAll(ctx.deps.stdin)
      : await readFile(resolve(ctx.deps.cwd, file), "utf8").catch((error: NodeJS.ErrnoException) => {
          throw new UsageError(
            `cannot read ${file}: ${error.code === "ENOENT" ? "no such file" : error.message}`,
          );
        });
  const { isHistoryLine, validateEntries } = await import("@claw/memory-core");
  const { entries, lines, problems, history } = parseEntries(text, isHistoryLine);
  const config = await ctx.loadConfig();
  for (const { index, error } of validateEntries(entries, config.memory)) {
    problems.push({ line: lines[index] as number, message: error.message });
  }
  problems.sort((a, b) => a.line - b.line);
  for (const p of problems) ctx.deps.stderr.write(`line ${p.line}: ${p.message}\n`);
  if (problems.length > 0 && !opts.skipInvalid) {
    throw new UsageError(
      `${problems.length} invalid line(s); nothing imported (--skip-invalid imports the others)`,
    );
  }
  const bad = new Set(problems.map((p) => p.line));
  const good = entries.filter((_, i) => !bad.has(lines[i] as number));
  const memory = await ctx.memory();
  const progress = ctx.progress("import");
  let imported = 0;
  for (let i = 0; i < good.length; i += CHUNK) {
    imported += await memory.import(good.slice(i, i + CHUNK), {
      onConflict: opts.skipExisting ? "skip" : "replace",
    });
    progress.update(Math.min(i + CHUNK, good.length), good.length);
  }
  progress.finish();
  ctx.result(
    { imported, invalid: problems.length, ...(history > 0 ? { historySkipped: history } : {}) },
    () =>
      `imported ${imported} memories${problems.length > 0 ? `, skipped ${problems.length} invalid line(s)` : ""}${
        history > 0
          ? `, skipped ${history} history line(s) (\`claw-memory restore\` on a PostgreSQL store puts the history back)`
          : ""
      }`,
  );
}

interface Parsed {
  entries: Array<Partial<MemoryEntry>>;
  /** The line each entry came from. */
  lines: number[];
  problems: Array<{ line: number; message: string }>;
  /** History lines skipped. */
  history: number;
}

function parseEntries(text: string, isHistoryLine: (value: unknown) => boolean): Parsed {
  const trimmed = text.trimStart();
  const parsed: Parsed = { entries: [], lines: [], problems: [], history: 0 };
  if (trimmed.startsWith("[")) {
    let array: unknown;
    try {
      array = JSON.parse(text);
    } catch (error) {
      parsed.problems.push({ line: 1, message: `not valid JSON: ${(error as Error).message}` });
      return parsed;
    }
    (array as unknown[]).forEach((entry, i) => {
      if (isHistoryLine(entry)) {
        parsed.history += 1;
        return;
      }
      parsed.entries.push(entry as Partial<MemoryEntry>);
      parsed.lines.push(i + 1); // the element number stands in for the line in a JSON array
    });
    return parsed;
  }
  text.split("\n").forEach((line, i) => {
    if (line.trim() === "") return;
    try {
      const value: unknown = JSON.parse(line);
      if (isHistoryLine(value)) {
        parsed.history += 1;
        return;
      }
      parsed.entries.push(value as Partial<MemoryEntry>);
      parsed.lines.push(i + 1);
    } catch (error) {
      parsed.problems.push({ line: i + 1, message: `not valid JSON: ${(error as Error).message}` });
    }
  });
  return parsed;
}

function toPlain(entry: MemoryEntry): Record<string, unknown> {
  const { embedding, ...rest } = entry;
  return embedding === undefined ? rest : { ...rest, embedding: Array.from(embedding) };
}
