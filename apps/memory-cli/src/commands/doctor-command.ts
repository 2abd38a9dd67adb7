// `claw-memory doctor [--repair | --salvage OUT]`: checks the workspace's SQLite database without
// opening it as a store (a damaged file may not open), then rebuilds what is derived from the
// entries or copies what can still be read into a new store. Exit 4 (CORRUPT) while damage remains.
import { join, resolve } from "node:path";
import { MemoryError } from "@claw/memory-api";
import type { CliContext } from "../cli-context.js";
import { UsageError } from "../exit-codes.js";

export async function doctorCommand(ctx: CliContext, opts: { repair?: boolean; salvage?: string } = {}) {
  if (opts.repair === true && opts.salvage !== undefined) {
    throw new UsageError("doctor: pass --repair or --salvage OUT, not both");
  }
  ctx.assertWorkspaceExists();
  const config = await ctx.loadConfig();
  if (config.memory.backend !== "sqlite") {
    throw new MemoryError(
      "UNAVAILABLE",
      `doctor checks SQLite stores; this workspace uses ${config.memory.backend} (PostgreSQL: amcheck, pg_dump)`,
    );
  }
  const { doctorStore } = await import("@claw/memory-core");
  const path = join(ctx.workspaceDir, "brain.db");
  const report = doctorStore(path, {
    ...(opts.repair === true ? { repair: true } : {}),
    ...(opts.salvage === undefined ? {} : { salvageTo: resolve(opts.salvage) }),
  });
  ctx.result(report, () => {
    const lines = [`${ctx.colors.dim("database")}  ${report.path}`];
    for (const check of report.checks) {
      const mark = check.ok ? ctx.colors.green("ok") : ctx.colors.red("FAILED");
      const hit = check.damaged === undefined ? "" : ` (damaged: ${check.damaged.join(", ")})`;
      lines.push(`${check.name.padEnd(15)} ${mark}${check.ok ? "" : `  ${check.detail}${hit}`}`);
    }
    if (report.marked && report.repaired === undefined && !(opts.repair === true && report.ok)) {
      lines.push("a process found this database damaged: writes are refused until `doctor --repair` passes");
    }
    if (report.repaired !== undefined) {
      lines.push(
        `repaired: rebuilt from ${report.repaired.entries} entries and ${report.repaired.versions} versions; the damaged file is kept as ${report.repaired.keptAs}`,
      );
    }
    if (report.salvage !== undefined) {
      const s = report.salvage;
      lines.push(
        `salvaged ${s.saved} entries (${s.lost} lost) and ${s.versionsSaved} versions (${s.versionsLost} lost) into ${s.path}`,
        `use it: \`claw-memory restore ${s.path} --force\``,
      );
    }
    return lines.join("\n");
  });
  // A salvage is a success of its own: the damaged file stays as it was, on purpose.
  if (!report.ok && report.salvage === undefined) {
    const failed = report.checks.filter((check) => !check.ok).map((check) => check.name);
    throw new MemoryError("CORRUPT", `doctor: ${failed.join(", ")} failed`);
  }
}
