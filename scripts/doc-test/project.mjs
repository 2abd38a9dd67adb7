// The temp project a Markdown file's blocks run in, as a user's project where the packages are
// installed: node_modules/ holds symlinks to this repository's workspace packages (Node follows a
// symlink to the real folder, so each package's own node_modules gives its dependencies; ESM
// ignores NODE_PATH, symlinks it does not), and to the frameworks the adapters take as peers
// (`ai`, `@langchain/core`) and the examples install (`openai`, `@ai-sdk/openai`, …), taken from
// the workspace's own node_modules. bin/ holds `claw-memory` and `claw-memory-server`, run from
// apps/*/dist. Nothing is downloaded.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

const BINS = {
  "claw-memory": "apps/memory-cli/dist/bin.js",
  "claw-memory-server": "apps/memory-server/dist/bin.js",
};
/** The workspace folders whose packages are linked by their own name. */
const LIBRARIES = ["packages", "apps"];
/** The workspace folders whose non-workspace dependencies (and peers) a snippet may import too. */
const USERS = ["packages", "apps", "examples"];

function workspacePackages(repo, folders) {
  const found = [];
  for (const folder of folders) {
    const base = join(repo, folder);
    if (!existsSync(base)) continue;
    for (const name of readdirSync(base).sort()) {
      const file = join(base, name, "package.json");
      if (existsSync(file))
        found.push({ folder, dir: join(base, name), manifest: JSON.parse(readFileSync(file, "utf8")) });
    }
  }
  return found;
}

/**
 * What node_modules/ of the temp project links to: `Map<name, folder>`. The workspace packages, then
 * the peers of packages/* and apps/* and the dependencies of examples/*, where installed.
 */
export function resolvePackages(repo) {
  const links = new Map();
  for (const { dir, manifest } of workspacePackages(repo, LIBRARIES)) links.set(manifest.name, dir);
  for (const { folder, dir, manifest } of workspacePackages(repo, USERS)) {
    const wanted =
      folder === "examples"
        ? { ...manifest.peerDependencies, ...manifest.dependencies }
        : { ...manifest.peerDependencies };
    for (const name of Object.keys(wanted)) {
      const installed = join(dir, "node_modules", name);
      if (!links.has(name) && existsSync(join(installed, "package.json"))) links.set(name, installed);
    }
  }
  return links;
}

/**
 * Files the workspace packages need built (each one's main entry, and the commands): the missing
 * ones, relative to the repository. Empty when everything is built.
 */
export function missingBuilds(repo) {
  const missing = [];
  for (const { dir, manifest } of workspacePackages(repo, LIBRARIES)) {
    const entry = manifest.exports?.["."]?.import ?? manifest.main;
    if (entry && !existsSync(join(dir, entry))) missing.push(join(dir, entry).slice(repo.length + 1));
  }
  for (const file of Object.values(BINS)) if (!existsSync(join(repo, file))) missing.push(file);
  return [...new Set(missing)];
}

/**
 * Makes the temp project of one Markdown file: `{ dir, env }`, `env` being the environment its
 * blocks run with: the caller's, minus every API key and CLAW_MEMORY_* variable, with HOME inside
 * the project, a fresh CLAW_MEMORY_WORKSPACE (HOME's default workspace, so that `createMemory()`
 * and the CLI share it), NO_COLOR=1, bin/ first on PATH and the offline guard loaded into node.
 */
export function createProject(repo, links, label, baseEnv = process.env) {
  const dir = mkdtempSync(join(tmpdir(), `claw-doc-test-${label.replace(/[^a-z0-9]+/gi, "-").slice(-40)}-`));
  const home = join(dir, "home");
  mkdirSync(home);
  mkdirSync(join(dir, "bin"));
  writeFileSync(
    join(dir, "package.json"),
    `${JSON.stringify({ name: "claw-doc-test", private: true, type: "module" }, null, 2)}\n`,
  );
  for (const [name, target] of links) {
    const link = join(dir, "node_modules", name);
    mkdirSync(dirname(link), { recursive: true });
    symlinkSync(target, link, "dir");
  }
  for (const [command, file] of Object.entries(BINS)) {
    writeFileSync(
      join(dir, "bin", command),
      `#!/bin/sh\nexec ${shellQuote(process.execPath)} ${shellQuote(join(repo, file))} "$@"\n`,
      { mode: 0o755 },
    );
  }
  const env = {};
  for (const [key, value] of Object.entries(baseEnv)) {
    if (/^CLAW_MEMORY_/.test(key) || /_API_KEY$/.test(key) || /^(NODE_OPTIONS|FORCE_COLOR)$/.test(key))
      continue;
    env[key] = value;
  }
  const guard = new URL("./offline.mjs", import.meta.url).href;
  Object.assign(env, {
    HOME: home,
    CLAW_MEMORY_WORKSPACE: join(home, ".claw-memory"),
    NO_COLOR: "1",
    PATH: [join(dir, "bin"), dirname(process.execPath), baseEnv.PATH ?? ""].join(":"),
    NODE_OPTIONS: `--import=${guard}`,
  });
  return { dir, env };
}

function shellQuote(text) {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
