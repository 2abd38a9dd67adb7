import { describe, expect, it } from "vitest";
import { runInProcess, tempWorkspace } from "../test-support/cli-harness.js";

describe("metadata: store --meta / --metadata, --where on recall and list", () => {
  /** Four memories about a relay: a, b and c with metadata, d without. */
  async function seeded(): Promise<string> {
    const ws = tempWorkspace();
    const stores = [
      ["a", "Relay design notes", "--meta", "project=alpha", "--meta", "priority=1"],
      [
        "b",
        "Relay rollout plan",
        "--meta",
        "project=alpha",
        "--meta",
        "priority=3",
        "--meta",
        "owner.team=core",
      ],
      ["c", "Relay budget", "--meta", "project=beta", "--meta", "priority=2"],
      ["d", "Relay without metadata"],
    ];
    for (const args of stores) expect((await runInProcess(["-w", ws, "store", ...args])).code).toBe(0);
    return ws;
  }

  async function listed(ws: string, ...where: string[]): Promise<string[]> {
    const args = where.flatMap((w) => ["--where", w]);
    const result = await runInProcess(["-w", ws, "--json", "list", ...args]);
    expect(result.code).toBe(0);
    return JSON.parse(result.stdout)
      .map((e: { key: string }) => e.key)
      .sort();
  }

  it("builds metadata from --meta pairs over --metadata JSON, and shows it", async () => {
    const ws = tempWorkspace();
    const stored = await runInProcess([
      "-w",
      ws,
      "store",
      "relay",
      "Deploy the relay",
      "--metadata",
      '{"project":"beta","owner":{"team":"web","lead":"ana"},"tags":["ops"]}',
      "--meta",
      "project=alpha",
      "--meta",
      "priority=2",
      "--meta",
      "done=false",
      "--meta",
      "reviewer=null",
      "--meta",
      "zip=007",
      "--meta",
      "ratio=0.5",
      "--meta",
      "owner.team=core",
      "--meta",
      "url=https://x.test/?a=b",
    ]);
    expect(stored).toMatchObject({ code: 0, stdout: "stored relay (core, default)\n" });

    const got = await runInProcess(["-w", ws, "--json", "get", "relay"]);
    expect(JSON.parse(got.stdout).metadata).toEqual({
      project: "alpha",
      owner: { team: "core", lead: "ana" },
      tags: ["ops"],
      priority: 2,
      done: false,
      reviewer: null,
      zip: "007",
      ratio: 0.5,
      url: "https://x.test/?a=b",
    });
    const human = await runInProcess(["-w", ws, "get", "relay"]);
    expect(human.stdout.split("\n")).toContain(
      'metadata    {"project":"alpha","owner":{"team":"core","lead":"ana"},"tags":["ops"],"priority":2,"done":false,"reviewer":null,"zip":"007","ratio":0.5,"url":"https://x.test/?a=b"}',
    );
    // A key named __proto__ is a field like any other, not the object's prototype.
    await runInProcess(["-w", ws, "store", "proto", "x", "--meta", "__proto__.polluted=1"]);
    const proto = await runInProcess(["-w", ws, "--json", "get", "proto"]);
    expect(proto.stdout).toContain('"metadata":{"__proto__":{"polluted":1}}');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    // An entry without metadata shows no metadata line.
    await runInProcess(["-w", ws, "store", "plain", "Nothing more"]);
    expect((await runInProcess(["-w", ws, "get", "plain"])).stdout).not.toMatch(/^metadata/m);
  });

  it("filters list with field=value, !=, ranges, dotted fields and JSON, all ANDed", async () => {
    const ws = await seeded();
    expect(await listed(ws, "project=alpha")).toEqual(["a", "b"]);
    // $ne also holds where the field is missing.
    expect(await listed(ws, "project!=alpha")).toEqual(["c", "d"]);
    expect(await listed(ws, "priority>=2")).toEqual(["b", "c"]);
    expect(await listed(ws, "priority>2")).toEqual(["b"]);
    expect(await listed(ws, "priority<=2")).toEqual(["a", "c"]);
    expect(await listed(ws, "priority<2")).toEqual(["a"]);
    expect(await listed(ws, "owner.team=core")).toEqual(["b"]);
    // Typed: the text "1" is not the number 1.
    expect(await listed(ws, '{"priority":"1"}')).toEqual([]);
    expect(await listed(ws, '{"priority":{"$in":[1,2]}}')).toEqual(["a", "c"]);
    expect(await listed(ws, "project=alpha", "priority>=2")).toEqual(["b"]);
    expect(await listed(ws, "priority>=2", "priority<3")).toEqual(["c"]);
    expect(await listed(ws, '{"project":"alpha"}', "priority<3")).toEqual(["a"]);
  });

  it("filters recall with --where and prints metadata in the table", async () => {
    const ws = await seeded();
    const hits = await runInProcess([
      "-w",
      ws,
      "--json",
      "recall",
      "relay",
      "--mode",
      "bm25",
      "--where",
      "project=alpha",
    ]);
    expect(
      JSON.parse(hits.stdout)
        .map((e: { key: string; metadata: unknown }) => [e.key, e.metadata])
        .sort(),
    ).toEqual([
      ["a", { project: "alpha", priority: 1 }],
      ["b", { project: "alpha", priority: 3, owner: { team: "core" } }],
    ]);

    const table = await runInProcess([
      "-w",
      ws,
      "recall",
      "relay",
      "--mode",
      "bm25",
      "--where",
      "priority>2",
    ]);
    expect(table.stdout.split("\n")).toEqual([
      "SCORE  KEY  CATEGORY  UPDATED   METADATA                                  CONTENT",
      '1.000  b    core      just now  {"project":"alpha","priority":3,"owner"…  Relay rollout plan',
      "",
    ]);
    const list = await runInProcess(["-w", ws, "list", "--where", "project=beta"]);
    expect(list.stdout.split("\n")).toEqual([
      "KEY  CATEGORY  UPDATED   METADATA                         CONTENT",
      'c    core      just now  {"project":"beta","priority":2}  Relay budget',
      "",
    ]);
  });

  it("documents --meta, --metadata and --where in each command's help", async () => {
    const store = await runInProcess(["store", "--help"]);
    expect(store.stdout).toMatch(/^ {2}--meta <key=value> {3}a metadata field, repeatable: project=alpha/m);
    expect(store.stdout).toMatch(/^ {2}--metadata <json> {4}metadata as a JSON object/m);
    for (const command of ["recall", "list", "export"]) {
      const help = await runInProcess([command, "--help"]);
      expect(help.stdout, command).toMatch(/^ {2}--where <filter> +only memories whose metadata matches/m);
    }
  });

  it("reports bad --meta, --metadata and --where syntax as usage errors naming the option", async () => {
    const ws = await seeded();
    const cases: Array<[string[], string]> = [
      [
        ["store", "k", "v", "--meta", "novalue"],
        'error: --meta expects key=value (a dotted key nests: owner.team=core), got "novalue"',
      ],
      [["store", "k", "v", "--meta", "owner..team=x"], "error: --meta expects key=value"],
      [["store", "k", "v", "--metadata", "{bad"], "error: --metadata expects a JSON object: "],
      [["store", "k", "v", "--metadata", "[1]"], "error: --metadata expects a JSON object, got [1]"],
      [
        ["list", "--where", "project"],
        'error: --where expects a JSON object or field=value (also !=, >, >=, <, <=), got "project"',
      ],
      [["recall", "x", "--where", "=alpha"], "error: --where expects a JSON object or field=value"],
      [["export", "--where", '{"a":'], "error: --where expects a JSON object: "],
      [
        ["list", "--where", "a=1", "--where", "a=2"],
        "error: --where: a is given two different $eq conditions",
      ],
    ];
    for (const [args, message] of cases) {
      const result = await runInProcess(["-w", ws, ...args]);
      expect(result.code, args.join(" ")).toBe(2);
      expect(result.stderr.split("\n")[0], args.join(" ")).toContain(message);
    }
    expect(await listed(ws)).toEqual(["a", "b", "c", "d"]);
  });

  it("reports what the library refuses as its INVALID_INPUT message (exit 2)", async () => {
    const ws = await seeded();
    const like = await runInProcess(["-w", ws, "--json", "list", "--where", '{"project":{"$like":"a%"}}']);
    expect(like.code).toBe(2);
    const message =
      "where.project.$like: unknown operator; expected one of $eq, $ne, $in, $nin, $gt, $gte, $lt, $lte, $exists";
    expect(JSON.parse(like.stdout)).toEqual({ error: { code: "INVALID_INPUT", message } });
    expect(like.stderr).toBe(`error: ${message}\n`);

    const or = await runInProcess(["-w", ws, "recall", "relay", "--where", '{"$or":[]}']);
    expect(or.code).toBe(2);
    expect(or.stderr).toBe("error: where.$or: an operator must follow a field: { field: { $gt: 1 } }\n");
    const field = await runInProcess(["-w", ws, "export", "--where", "a b=1"]);
    expect(field.code).toBe(2);
    expect(field.stderr).toBe(
      'error: where.a b: a field is up to 8 dot-separated names of letters, digits, "_" and "-"\n',
    );

    const big = await runInProcess([
      "-w",
      ws,
      "--json",
      "store",
      "big",
      "v",
      "--meta",
      `x=${"y".repeat(17_000)}`,
    ]);
    expect(big.code).toBe(2);
    expect(JSON.parse(big.stdout)).toEqual({
      error: { code: "INVALID_INPUT", message: "metadata: is 17008 bytes as JSON, over the limit of 16384" },
    });
    expect((await runInProcess(["-w", ws, "get", "big"])).code).toBe(3);
  });
});
