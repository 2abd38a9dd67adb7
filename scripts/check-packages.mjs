#!/usr/bin/env node
// CI: the packages as npm would publish them install with plain npm in a fresh folder and work.
// Installs every tarball through install-cli into a temp prefix, then checks that the commands
// run (`--version` prints the package's version; init, store, recall), that @claw/memory-core
// stores and recalls from its tarball with nothing but its own dependencies, and that no test
// framework was installed. Then each agent-framework adapter (@claw/memory-ai-sdk,
// @claw/memory-langchain) in a folder of its own, with its framework (check-adapters.mjs).
// Prints one line per check; exits 1 on the first failure.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { checkAdapters } from "./check-adapters.mjs";
import { installCli } from "./install-cli.mjs";

const temp = mkdtempSync(join(tmpdir(), "claw-packages-"));
const run = (file, args, options = {}) => execFileSync(file, args, { encoding: "utf8", ...options }).trim();
const check = (what, ok, detail = "") => {
  process.stdout.write(`${ok ? "ok  " : "FAIL"} ${what}${detail ? `: ${detail}` : ""}\n`);
  if (!ok) process.exit(1);
};

try {
  const { binDir, libDir, packages, tarballs } = installCli({ prefix: join(temp, "prefix"), build: false });
  const version = packages.find((p) => p.name === "@claw/memory-cli").version;
  check("claw-memory --version", run(join(binDir, "claw-memory"), ["--version"]) === version, version);
  check("claw-memory-server --version", run(join(binDir, "claw-memory-server"), ["--version"]) === version);
  const workspace = join(temp, "workspace");
  run(join(binDir, "claw-memory"), ["--workspace", workspace, "init"]);
  run(join(binDir, "claw-memory"), [
    "--workspace",
    workspace,
    "store",
    "standup",
    "The standup moved to 9:30",
  ]);
  const recalled = JSON.parse(
    run(join(binDir, "claw-memory"), ["--workspace", workspace, "--json", "recall", "standup"]),
  );
  check("claw-memory store + recall", recalled[0]?.key === "standup");

  const core = JSON.parse(readFileSync(join(libDir, "node_modules/@claw/memory-core/package.json"), "utf8"));
  const coreDeps = Object.keys(core.dependencies ?? {})
    .sort()
    .join(",");
  check("@claw/memory-core depends on", coreDeps === "better-sqlite3,smol-toml,sqlite-vec,zod", coreDeps);
  check("no test framework installed", !existsSync(join(libDir, "node_modules/vitest")));
  const script = `
    import { SqliteMemory } from "@claw/memory-core";
    const memory = SqliteMemory.open({ path: ":memory:" });
    await memory.store("tz", "The user lives in Lisbon");
    const [hit] = await memory.recall("where does the user live", { mode: "bm25" });
    await memory.close();
    process.stdout.write(hit?.key ?? "none");`;
  check(
    "library store + recall",
    run(process.execPath, ["--input-type=module", "-e", script], { cwd: libDir }) === "tz",
  );
  checkAdapters({ temp, tarballs, check });
} finally {
  rmSync(temp, { recursive: true, force: true });
}
