import { createRequire } from "node:module";
import { Command, Option } from "commander";
import { CliContext, type GlobalOptions } from "./cli-context.js";
import type { CliDeps } from "./cli-deps.js";
import { UsageError } from "./exit-codes.js";

type Handler = (ctx: CliContext, ...args: never[]) => Promise<void>;

/**
 * The `claw-memory` command tree. Only commander is loaded up front: each command imports its
 * implementation (and through it core, lifecycle, providers) when it runs, so `--help` stays fast.
 * `onContext` receives the context of the command that ran, so the caller can close it.
 */
export function buildProgram(deps: CliDeps, onContext: (ctx: CliContext) => void = () => {}): Command {
  const program = new Command("claw-memory")
    .description("Long-term memory for AI agents: store, recall and maintain what an agent learns.")
    .version(VERSION, "-V, --version")
    .option("-w, --workspace <dir>", "workspace folder (default: $CLAW_MEMORY_WORKSPACE or ~/.claw-memory)")
    .option("-c, --config <file>", "config file (default: <workspace>/claw-memory.toml)")
    .option("--json", "machine-readable output on stdout (logs stay on stderr)")
    .option("-q, --quiet", "only errors on stderr, no progress")
    .option("-v, --verbose", "debug logs on stderr")
    .showHelpAfterError("(run with --help for usage)")
    .configureOutput({
      writeOut: (text) => deps.stdout.write(text),
      writeErr: (text) => deps.stderr.write(text),
    })
    .exitOverride();

  /** Registers an action that loads `load()` lazily and calls its handler with a fresh context. */
  const action =
    <H extends Handler>(load: () => Promise<H>) =>
    async (...args: unknown[]) => {
      const command = args[args.length - 1] as Command;
      const ctx = new CliContext(deps, command.optsWithGlobals<GlobalOptions>());
      onContext(ctx);
      const handler = await load();
      await (handler as unknown as (ctx: CliContext, ...rest: unknown[]) => Promise<void>)(
        ctx,
        ...args.slice(0, -1),
      );
    };
  const memory = () => import("./commands/memory-commands.js");
  const transfer = () => import("./commands/transfer-commands.js");
  const maintenance = () => import("./commands/maintenance-commands.js");
  const doctor = () => import("./commands/doctor-command.js");
  const lifecycle = () => import("./commands/lifecycle-commands.js");
  const config = () => import("./commands/config-commands.js");
  const history = () => import("./commands/history-commands.js");
  const backup = () => import("./commands/backup-commands.js");

  program
    .command("store")
    .description("store a memory (upsert by key); content from stdin when omitted")
    .argument("<key>")
    .argument("[content]")
    .option("--category <name>", "core (default), daily, conversation or your own")
    .option("--namespace <ns>", 'default "default"')
    .option("--session <id>", "session the memory belongs to")
    .option("--importance <0..1>", "computed from the content when omitted")
    .option("--context <text>", "more words the memory is found by (e.g. a heading path), not part of it")
    .option("--check-conflicts", "supersede older memories this one contradicts (conflict_threshold)")
    .option(
      "--meta <key=value>",
      "a metadata field, repeatable: project=alpha, priority=2, owner.team=core (numbers, true, false, null are JSON)",
      repeatable,
    )
    .option("--metadata <json>", "metadata as a JSON object (a --meta on the same key wins)")
    .option("--ttl <age>", "expire after this long: 30m, 12h, 7d, 2w, 1y (not with --expires-at)")
    .option("--expires-at <time>", "expire at this time (RFC 3339: 2026-12-31T23:00:00Z)")
    .action(action(async () => (await memory()).storeCommand));

  program
    .command("get")
    .description("show one memory")
    .argument("<key>")
    .option("--namespace <ns>")
    .action(action(async () => (await memory()).getCommand));

  program
    .command("recall")
    .description("find the memories most relevant to a query")
    .argument("<query>")
    .option("-n, --limit <n>", "how many (default 5)")
    .addOption(new Option("--mode <mode>", "search mode").choices(["hybrid", "embedding", "bm25"]))
    .option("--namespace <ns>", '"*" for every namespace')
    .option("--session <id>")
    .option("--since <when>", "a date (2026-11-01) or an age (30d, 12h)")
    .option("--until <when>")
    .option("--category <names...>", "one or more categories (comma-separated or repeated)")
    .option("--min-score <score>", "scores are in (0, 1]; 0.5 and above: every query term")
    .option("--include-superseded", "also show memories replaced by newer ones")
    .option("--as-of <when>", "measure recency from this time (a date, or an age such as 30d)")
    .option("--where <filter>", WHERE_HELP, repeatable)
    .option("--explain", "say why each memory came back: the parts of its score")
    .action(action(async () => (await memory()).recallCommand));

  program
    .command("list")
    .description("list memories, newest first")
    .option("--namespace <ns>", '"*" for every namespace')
    .option("--category <name>")
    .option("--session <id>")
    .option("-n, --limit <n>", "default 100")
    .option("--offset <n>")
    .option("--where <filter>", WHERE_HELP, repeatable)
    .action(action(async () => (await memory()).listCommand));

  program
    .command("forget")
    .description("delete one memory")
    .argument("<key>")
    .option("--namespace <ns>")
    .action(action(async () => (await memory()).forgetCommand));

  program
    .command("purge")
    .description("delete every memory of a namespace or a session")
    .option("--namespace <ns>")
    .option("--session <id>")
    .option("-y, --yes", "do not ask for confirmation")
    .action(action(async () => (await memory()).purgeCommand));

  program
    .command("history")
    .description("every kept version of a memory, newest first: what changed, when and by whom")
    .argument("<key>")
    .option("--namespace <ns>")
    .option("-n, --limit <n>", "only the newest n versions (default every kept one)")
    .action(action(async () => (await history()).historyCommand));

  program
    .command("restore")
    .description(
      "restore the store from a backup (`restore FILE [--force]`), or make an earlier version of a memory current again (`restore <key> <version>`, also after forget)",
    )
    .argument("<file|key>", "a file `claw-memory backup` wrote, or the key of a memory")
    .argument("[version]", "with a key: a version number from `claw-memory history <key>`")
    .option("--namespace <ns>", "with a key: the memory's namespace")
    .option(
      "--force",
      "with a FILE: replace a store that holds entries (SQLite keeps it as brain.db.before-restore; PostgreSQL imports over it)",
    )
    .action(action(async () => (await backup()).restoreCommand));

  program
    .command("backup")
    .description(
      "write a consistent copy of the whole store to FILE while it stays in use (SQLite: a checked database file; PostgreSQL: NDJSON with the vectors)",
    )
    .argument("<file>", "where to write it (replaced atomically)")
    .action(action(async () => (await backup()).backupCommand));

  program
    .command("purge-expired")
    .description("delete the memories whose expiry (store --ttl / --expires-at) has passed")
    .action(action(async () => (await history()).purgeExpiredCommand));

  program
    .command("export")
    .description("write memories as JSON lines (default), JSON or Markdown")
    .addOption(new Option("--format <format>").choices(["jsonl", "json", "md"]).default("jsonl"))
    .option("-o, --out <file>", "write to a file (atomically) instead of stdout")
    .option("--namespace <ns>", "default: every namespace")
    .option("--category <name>")
    .option("--session <id>")
    .option("--since <when>")
    .option("--until <when>")
    .option("--embeddings", "include the vectors")
    .option("--where <filter>", WHERE_HELP, repeatable)
    .action(action(async () => (await transfer()).exportCommand));

  program
    .command("import")
    .description("import memories from JSON lines or a JSON array (a file, or stdin)")
    .argument("[file]", 'default stdin ("-")')
    .option("--skip-invalid", "import the valid lines even when some are not")
    .option("--skip-existing", "leave memories whose key exists untouched")
    .action(action(async () => (await transfer()).importCommand));

  program
    .command("status")
    .description("workspace, database, embeddings and index health")
    .option(
      "--deep",
      "also embed one text with the provider and check the database (exit 1 when either fails)",
    )
    .action(action(async () => (await maintenance()).statusCommand));
  program
    .command("doctor")
    .description(
      "check the database for damage; --repair rebuilds its indexes, --salvage copies what can be read",
    )
    .option("--repair", "rebuild the full-text, vector-code and metadata indexes from the entries")
    .option("--salvage <out>", "write every entry that can still be read into a new database file")
    .action(action(async () => (await doctor()).doctorCommand));
  program
    .command("reindex")
    .description("re-embed every memory with the current provider")
    .action(action(async () => (await maintenance()).reindexCommand));
  program
    .command("backfill")
    .description("embed memories that have no vector yet")
    .option("--batch-size <n>")
    .action(action(async () => (await maintenance()).backfillCommand));
  program
    .command("hygiene")
    .description("prune expired daily and conversation memories (every 12 h unless --force)")
    .option("--force", "run even when not due")
    .action(action(async () => (await maintenance()).hygieneCommand));
  program
    .command("snapshot")
    .description("write core memories to MEMORY_SNAPSHOT.md")
    .action(action(async () => (await maintenance()).snapshotCommand));
  program
    .command("hydrate")
    .description("index MEMORY_SNAPSHOT.md into the database (existing keys are kept)")
    .action(action(async () => (await maintenance()).hydrateCommand));

  program
    .command("consolidate")
    .description("save an agent turn: a daily note, and a core memory when it matters")
    .argument("[message]", "the user's message (default stdin)")
    .option("--assistant <reply>", "the assistant's reply")
    .option("--session <id>")
    .option("--namespace <ns>")
    .action(action(async () => (await lifecycle()).consolidateCommand));
  program
    .command("curate")
    .description("let an LLM propose deletions and merges (validated, capped)")
    .option("--dry-run", "report what would change, change nothing")
    .option("--max-deletions <n>", "default 10% of the memories")
    .option("--namespace <ns>")
    .action(action(async () => (await lifecycle()).curateCommand));

  program
    .command("context")
    .description("the memory an agent would add to its prompt for a message (core block + recall block)")
    .argument("<message>")
    .option("--namespace <ns>")
    .option("-n, --limit <n>", "recalled memories (default auto_recall_limit)")
    .option("--max-tokens <n>", "budget of the recall block (default 600)")
    .action(action(async () => (await lifecycle()).contextCommand));

  const workspace = () => import("./commands/workspace-commands.js");
  program
    .command("sync")
    .description("index MEMORY.md, memory/**/*.md and bank/ pages of the workspace (incremental)")
    .option("--full", "check every entry against the files, not only what changed")
    .option("--namespace <ns>")
    .action(action(async () => (await workspace()).syncCommand));
  program
    .command("watch")
    .description("sync, then re-sync on every burst of edits until stopped (Ctrl-C)")
    .option("--namespace <ns>")
    .option("--debounce <ms>", "quiet time before a sync (default 1500)")
    .action(action(async () => (await workspace()).watchCommand));
  program
    .command("search")
    .description("search the workspace files and stored memories (path, lines, snippet)")
    .argument("<query>")
    .option("-n, --limit <n>", "default 5")
    .option("--entity <name>", "only hits mentioning @name")
    .addOption(
      new Option("--kind <kind>", "only retained facts of this kind").choices([
        "world",
        "experience",
        "opinion",
        "observation",
      ]),
    )
    .option("--since <when>", "a date or an age (30d)")
    .option("--until <when>")
    .option("--category <names...>")
    .option("--min-score <score>")
    .option("--namespace <ns>")
    .option("--no-sync", "search the index as it is, without syncing the files first")
    .action(action(async () => (await workspace()).searchCommand));
  program
    .command("read")
    .description("print a memory file (MEMORY.md, memory/…, bank/…) or some of its lines")
    .argument("<path>")
    .option("--from <line>", "first line, 1-based")
    .option("--lines <n>", "how many lines")
    .action(action(async () => (await workspace()).readCommand));
  program
    .command("reflect")
    .description("write bank/entities/<Name>.md and bank/opinions.md from the retained facts")
    .option("--since <when>", "only entities with facts since then")
    .action(action(async () => (await workspace()).reflectCommand));
  program
    .command("entity")
    .description("what the workspace knows about an entity: facts and opinions, newest first")
    .argument("<name>")
    .option("--no-sync", "use the index as it is, without syncing the files first")
    .action(action(async () => (await workspace()).entityCommand));

  program
    .command("config")
    .description("print the effective configuration (secrets masked)")
    .action(action(async () => (await config()).configCommand));
  program
    .command("init")
    .description("create a workspace with a commented claw-memory.toml")
    .option("--force", "replace an existing claw-memory.toml")
    .action(action(async () => (await config()).initCommand));

  program
    .command("migrate")
    .description("copy every memory between SQLite and PostgreSQL (resumable, checked)")
    .addOption(new Option("--from <backend>").choices(["sqlite", "postgres"]).makeOptionMandatory())
    .addOption(new Option("--to <backend>").choices(["sqlite", "postgres"]).makeOptionMandatory())
    .option("--pg-url <url>", "default [postgres] url or CLAW_MEMORY_PG_URL")
    .option("--batch-size <n>", "entries per transaction (default 500)")
    .action(action(async () => (await import("./commands/migrate-command.js")).migrateCommand));

  program
    .command("serve")
    .description("start the HTTP API (and MCP over HTTP at /mcp) on this workspace")
    .option("--host <host>", "default server.host (127.0.0.1); other hosts need a token")
    .option("--port <port>", "default server.port (7878); 0 = any free port")
    .action(action(async () => (await import("./commands/serve-command.js")).serveCommand));

  program
    .command("mcp")
    .description("serve the memory tools over MCP on stdio")
    .action(action(async () => (await import("./commands/mcp-command.js")).mcpCommand));

  const token = program
    .command("token")
    .description("server tokens: `token create NAME` prints a new one and its [[server.tokens]] lines");
  token
    .command("create")
    .description("print a new random server token once, and the config lines holding only its SHA-256")
    .argument("<name>", "who the token is for, written as a comment beside the hash")
    .option(
      "--namespace <ns>",
      "a namespace the token may use, repeatable (default: every namespace)",
      repeatable,
    )
    .option("--read-only", "the token may read but not write")
    .action(action(async () => (await import("./commands/token-commands.js")).tokenCreateCommand));

  // Words people type for a command by another name: answered with the right one (exit 2).
  for (const [word, command] of Object.entries(SYNONYMS)) {
    program
      .command(word, { hidden: true })
      .argument("[args...]")
      .allowUnknownOption()
      .helpOption(false)
      .action(() => {
        throw new UsageError(`unknown command '${word}': did you mean \`claw-memory ${command}\`?`);
      });
  }

  return program;
}

/** `--meta`, `--where`: each use adds a value. */
function repeatable(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

const WHERE_HELP =
  'only memories whose metadata matches, repeatable (ANDed): project=alpha, status!=done, priority>=2 (also >, <, <=) or JSON such as \'{"priority":{"$in":[1,2]}}\'';

/** Names of other tools' commands, and the claw-memory command that does the same. */
const SYNONYMS: Readonly<Record<string, string>> = {
  add: "store",
  save: "store",
  put: "store",
  set: "store",
  remember: "store",
  delete: "forget",
  del: "forget",
  rm: "forget",
  remove: "forget",
  ls: "list",
  find: "recall",
  query: "recall",
  show: "get",
  cat: "get",
};

/** This package's version (from its package.json, which ships beside dist/). */
export const VERSION: string = (createRequire(import.meta.url)("../package.json") as { version: string })
  .version;
