import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { CliContext } from "../cli-context.js";
import { UsageError } from "../exit-codes.js";

const SECRET_KEYS = new Set(["apiKey", "token"]);

/** `config`: the effective configuration (file + defaults + environment), secrets masked. */
export async function configCommand(ctx: CliContext) {
  const config = await ctx.loadConfig();
  const { camelToSnake } = await import("@claw/memory-core");
  const masked = mask(config) as Record<string, unknown>;
  ctx.result(masked, () => renderToml(masked, camelToSnake));
}

function mask(value: unknown, key = ""): unknown {
  if (SECRET_KEYS.has(key) && typeof value === "string")
    return value.length > 8 ? `${value.slice(0, 3)}…(masked)` : "…(masked)";
  if (key === "url" && typeof value === "string") return withoutPassword(value);
  if (Array.isArray(value)) return value.map((v) => mask(v));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mask(v, k)]));
  }
  return value;
}

/** A connection string with its password masked (`postgres://claw:***@host/db`). */
function withoutPassword(value: string): string {
  try {
    const url = new URL(value);
    if (url.password === "") return value;
    url.password = "***";
    return url.toString();
  } catch {
    return value;
  }
}

/** A TOML-like listing with the file's snake_case keys. */
function renderToml(config: Record<string, unknown>, toSnake: (key: string) => string): string {
  const lines: string[] = [];
  const table = (path: string, value: Record<string, unknown>, arrayItem = false) => {
    const scalars = Object.entries(value).filter(([, v]) => !isTable(v) && !isTableArray(v));
    if (path !== "") lines.push(arrayItem ? `[[${path}]]` : `[${path}]`);
    for (const [k, v] of scalars) lines.push(`${toSnake(k)} = ${JSON.stringify(v)}`);
    if (path !== "") lines.push("");
    for (const [k, v] of Object.entries(value)) {
      // Provider names are the user's own and stay as written.
      const name = path === "" ? toSnake(k) : `${path}.${path === "providers" ? k : toSnake(k)}`;
      if (isTable(v)) table(name, v);
      else if (isTableArray(v)) for (const item of v) table(name, item, true);
    }
  };
  table("", config);
  return lines.join("\n").trimEnd();
}

function isTable(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

function isTableArray(v: unknown): v is Array<Record<string, unknown>> {
  return Array.isArray(v) && v.length > 0 && v.every(isTable);
}

const STARTER_CONFIG = `# claw-memory configuration. Every key is optional; the values shown are the defaults.
# Reference: https://github.com/claw-memory/claw-memory#configuration

[memory]
backend = "sqlite"                 # "sqlite", "none" or "postgres" (with [postgres] url)
embedding_provider = "auto"        # auto | local | openai | openrouter | gemini | voyage | custom:<url> | none
# embedding_model = "text-embedding-3-small"
# embedding_dims = 1536
search_mode = "hybrid"             # hybrid | embedding | bm25
merge_strategy = "adaptive"        # adaptive | rrf | weighted
decay_floor = 0.95                 # share of a score recency never takes away (0 = seed 000)
defer_embedding = true             # store returns before the vector is computed
auto_save = true
hygiene_enabled = true             # prune old daily/conversation memories every 12 h
conversation_retention_days = 30
daily_retention_days = 30
snapshot_enabled = false           # keep MEMORY_SNAPSHOT.md of core memories
auto_hydrate = true                # rebuild from the snapshot when brain.db is lost
conflict_threshold = 0.6
conflict_mode = "combined"         # jaccard | combined
# curator_provider = "auto"        # auto | openai | openrouter | gemini | custom:<url> | none

# API keys are best left in the environment: OPENAI_API_KEY, OPENROUTER_API_KEY, GEMINI_API_KEY,
# VOYAGE_API_KEY. A [providers.<name>] table can set base_url, model, or api_key_env.
# [providers.openai]
# base_url = "https://api.openai.com/v1"

[server]
host = "127.0.0.1"
port = 7878
`;

/** `init`: creates the workspace with a commented claw-memory.toml (never overwrites one). */
export async function initCommand(ctx: CliContext, opts: { force?: boolean }) {
  const path = join(ctx.workspaceDir, "claw-memory.toml");
  if (existsSync(path) && !opts.force) throw new UsageError(`${path} exists; --force replaces it`);
  await mkdir(ctx.workspaceDir, { recursive: true });
  await writeFile(path, STARTER_CONFIG, { mode: 0o600 });
  ctx.result({ workspace: ctx.workspaceDir, config: path }, () =>
    [`created ${path}`, `try: claw-memory --workspace ${ctx.workspaceDir} store greeting "hello"`].join("\n"),
  );
}
