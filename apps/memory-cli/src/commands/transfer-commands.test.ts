import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runInProcess, tempWorkspace } from "../test-support/cli-harness.js";

async function seeded(): Promise<string> {
  const ws = tempWorkspace();
  await runInProcess(["-w", ws, "store", "editor", "The user edits code in Helix"]);
  await runInProcess(["-w", ws, "store", "standup", "Standup moved to 10:15", "--category", "daily"]);
  await runInProcess(["-w", ws, "store", "t", "tenant note", "--namespace", "tenant"]);
  return ws;
}

describe("export", () => {
  it("writes JSON lines by default, every namespace, filterable", async () => {
    const ws = await seeded();
    const all = await runInProcess(["-w", ws, "export"]);
    const lines = all.stdout
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines.map((e) => `${e.namespace}/${e.key}`).sort()).toEqual([
      "default/editor",
      "default/standup",
      "tenant/t",
    ]);
    const daily = await runInProcess(["-w", ws, "export", "--format", "json", "--category", "daily"]);
    expect(JSON.parse(daily.stdout).map((e: { key: string }) => e.key)).toEqual(["standup"]);
  });

  it("writes Markdown grouped by category", async () => {
    const ws = await seeded();
    const md = await runInProcess(["-w", ws, "export", "--format", "md", "--namespace", "default"]);
    expect(md.stdout).toMatch(/^# claw-memory export \(2 memories\)/);
    expect(md.stdout).toContain("## core\n\n### editor\n");
    expect(md.stdout).toContain("Standup moved to 10:15");
  });

  it("writes --out atomically and says where on stderr", async () => {
    const ws = await seeded();
    const out = join(ws, "backup.jsonl");
    const result = await runInProcess(["-w", ws, "export", "--out", out]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain(`exported 3 memories to ${out}`);
    expect(readFileSync(out, "utf8").trimEnd().split("\n").length).toBe(3);
    expect(readdirSync(ws).filter((f) => f.endsWith(".tmp"))).toEqual([]);
  });

  it("exports only the memories --where matches", async () => {
    const ws = await seeded();
    await runInProcess(["-w", ws, "store", "relay", "Relay plan", "--meta", "project=alpha"]);
    await runInProcess(["-w", ws, "store", "budget", "Budget", "--meta", "project=beta", "--meta", "cost=3"]);
    const alpha = await runInProcess(["-w", ws, "export", "--where", "project=alpha"]);
    expect(
      alpha.stdout
        .trimEnd()
        .split("\n")
        .map((l) => JSON.parse(l))
        .map((e) => [e.key, e.metadata]),
    ).toEqual([["relay", { project: "alpha" }]]);
    const json = await runInProcess([
      "-w",
      ws,
      "export",
      "--format",
      "json",
      "--where",
      '{"cost":{"$lt":5}}',
    ]);
    expect(JSON.parse(json.stdout).map((e: { key: string }) => e.key)).toEqual(["budget"]);
    const md = await runInProcess(["-w", ws, "export", "--format", "md", "--where", "project!=beta"]);
    expect(md.stdout).toMatch(/^# claw-memory export \(4 memories\)/);
  });

  it("rejects an unknown format", async () => {
    const ws = tempWorkspace();
    expect((await runInProcess(["-w", ws, "export", "--format", "xml"])).code).toBe(2);
  });
});

describe("import", () => {
  it("round-trips an export into another workspace", async () => {
    const ws = await seeded();
    const exported = (await runInProcess(["-w", ws, "export"])).stdout;
    const other = tempWorkspace();
    const imported = await runInProcess(["-w", other, "--json", "import"], { stdin: exported });
    expect(JSON.parse(imported.stdout)).toEqual({ imported: 3, invalid: 0 });
    expect((await runInProcess(["-w", other, "export"])).stdout).toBe(exported);
  });

  it("round-trips metadata through export and import", async () => {
    const ws = tempWorkspace();
    await runInProcess([
      "-w",
      ws,
      "store",
      "relay",
      "Relay plan",
      "--metadata",
      '{"tags":["ops","infra"],"owner":{"team":"core"}}',
      "--meta",
      "priority=2",
      "--meta",
      "done=false",
    ]);
    await runInProcess(["-w", ws, "store", "plain", "No fields"]);
    const exported = (await runInProcess(["-w", ws, "export"])).stdout;

    const other = tempWorkspace();
    const imported = await runInProcess(["-w", other, "--json", "import"], { stdin: exported });
    expect(JSON.parse(imported.stdout)).toEqual({ imported: 2, invalid: 0 });
    expect((await runInProcess(["-w", other, "export"])).stdout).toBe(exported);
    const got = JSON.parse((await runInProcess(["-w", other, "--json", "get", "relay"])).stdout);
    expect(got.metadata).toEqual({
      tags: ["ops", "infra"],
      owner: { team: "core" },
      priority: 2,
      done: false,
    });
    expect(
      JSON.parse((await runInProcess(["-w", other, "--json", "get", "plain"])).stdout),
    ).not.toHaveProperty("metadata");
    // The imported metadata is filterable like stored metadata.
    const found = await runInProcess(["-w", other, "--json", "list", "--where", "owner.team=core"]);
    expect(JSON.parse(found.stdout).map((e: { key: string }) => e.key)).toEqual(["relay"]);
  });

  it("reports bad metadata on its line", async () => {
    const ws = tempWorkspace();
    const result = await runInProcess(["-w", ws, "import"], {
      stdin: [
        '{"key":"a","content":"x","metadata":{"n":1}}',
        '{"key":"b","content":"y","metadata":[1]}',
      ].join("\n"),
    });
    expect(result.code).toBe(2);
    expect(result.stderr.split("\n")[0]).toBe("line 2: metadata: expected a JSON object");
  });

  it("reports every bad line by number and imports nothing", async () => {
    const ws = tempWorkspace();
    const file = join(ws, "in.jsonl");
    writeFileSync(
      file,
      [
        '{"key":"a","content":"fine"}',
        "{not json",
        '{"key":"b","content":""}',
        "",
        '{"key":"c","content":"ok","importance":3}',
      ].join("\n"),
    );
    const result = await runInProcess(["-w", ws, "import", file]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^line 2: not valid JSON/m);
    expect(result.stderr).toMatch(/^line 3: content: must not be empty/m);
    expect(result.stderr).toMatch(/^line 5: importance: /m);
    expect(result.stderr).toContain("3 invalid line(s); nothing imported");
    expect((await runInProcess(["-w", ws, "--json", "list"])).stdout).toBe("[]\n");

    const skipping = await runInProcess(["-w", ws, "--json", "import", file, "--skip-invalid"]);
    expect(JSON.parse(skipping.stdout)).toEqual({ imported: 1, invalid: 3 });
  });

  it("accepts a JSON array and --skip-existing keeps what is there", async () => {
    const ws = tempWorkspace();
    await runInProcess(["-w", ws, "store", "a", "original"]);
    const result = await runInProcess(["-w", ws, "import", "--skip-existing", "-"], {
      stdin: JSON.stringify([
        { key: "a", content: "replacement" },
        { key: "b", content: "new" },
      ]),
    });
    expect(result.stdout).toBe("imported 1 memories\n");
    expect(JSON.parse((await runInProcess(["-w", ws, "--json", "get", "a"])).stdout).content).toBe(
      "original",
    );
  });

  it("reports a missing file as a usage error", async () => {
    const ws = tempWorkspace();
    const result = await runInProcess(["-w", ws, "import", join(ws, "missing.jsonl")]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("no such file");
  });

  it("prints progress lines when not on a terminal", async () => {
    const ws = tempWorkspace();
    const lines = Array.from({ length: 2500 }, (_, i) =>
      JSON.stringify({ key: `k${i}`, content: `note ${i}` }),
    );
    const result = await runInProcess(["-w", ws, "import"], { stdin: lines.join("\n") });
    expect(result.stderr.split("\n").filter((l) => l.startsWith("import:"))).toEqual([
      "import: 40% (1000/2500)",
      "import: 80% (2000/2500)",
      "import: 100% (2500/2500)",
    ]);
  });
});
