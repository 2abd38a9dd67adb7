import { symlinkSync } from "node:fs";
import { join } from "node:path";
import type { Logger } from "@claw/memory-api";
import { describe, expect, it } from "vitest";
import { tempDir, writeFiles } from "../test-support/temp-workspace.js";
import { canonicalNameOf, comparisonKey, entityAliasLoader, pageEntityName } from "./entity-aliases.js";

/** A logger keeping each warning with its data. */
function warnings(): Logger & { warned: Array<[string, Record<string, unknown> | undefined]> } {
  const warned: Array<[string, Record<string, unknown> | undefined]> = [];
  const ignore = () => {};
  return { warned, debug: ignore, info: ignore, error: ignore, warn: (m, d) => warned.push([m, d]) };
}

function entries(map: ReadonlyMap<string, string>): Array<[string, string]> {
  return [...map].sort(([a], [b]) => (a < b ? -1 : 1));
}

describe("entity aliases of a workspace", () => {
  it("maps each alias and the page's own name to the page's file name, across the page syntaxes", async () => {
    const dir = tempDir();
    writeFiles(dir, {
      "bank/entities/Peter.md": "# Peter Steinberger (maintainer)\n\naliases: Pete, @P. Steinberger\n",
      "bank/entities/张三.md": "---\naliases: [老张, '@小张']\n---\n# 张三\n",
      "bank/entities/warelay.md": "---\naliases:\n  - relay\n  - WR\n---\n# warelay\n",
      "bank/entities/Alice.md": "# Alice\n\nMet her at RustConf.\n",
      "bank/entities/notes.txt": "aliases: NotAPage\n",
      "bank/entities/.draft.md": "aliases: Hidden\n",
      "bank/world.md": "aliases: NotAnEntityPage\n",
    });
    const aliases = await entityAliasLoader(dir, warnings())();

    expect(entries(aliases.names)).toEqual([
      ["p. steinberger", "Peter"],
      ["pete", "Peter"],
      ["peter", "Peter"],
      ["relay", "warelay"],
      ["warelay", "warelay"],
      ["wr", "warelay"],
      ["小张", "张三"],
      ["张三", "张三"],
      ["老张", "张三"],
    ]);
    expect(entries(aliases.pages)).toEqual([
      ["peter", "bank/entities/Peter.md"],
      ["warelay", "bank/entities/warelay.md"],
      ["张三", "bank/entities/张三.md"],
    ]);
    expect(canonicalNameOf(aliases, "@PETE")).toBe("Peter");
    expect(comparisonKey(aliases, "ＰＥＴＥ")).toBe("peter");
    expect(comparisonKey(aliases, "Alice")).toBe("alice");
    expect(canonicalNameOf(aliases, "Alice")).toBeUndefined();
  });

  it("names a page by its file name, as reflect() writes it", () => {
    expect(pageEntityName("bank/entities/Peter.md")).toBe("Peter");
    expect(pageEntityName("bank/entities/The-Castle.MD")).toBe("The-Castle");
    expect(pageEntityName("bank/entities/Jose\u0301.md")).toBe("José");
  });

  it("settles conflicts in page order, own names first, and logs each conflict once", async () => {
    const dir = tempDir();
    // Written in reverse order: the result must not depend on the order the folder lists them in.
    writeFiles(dir, {
      "bank/entities/Petra.md": "# Petra\n\naliases: PS, Pet\n",
      "bank/entities/Peter.md": "# Peter\n\naliases: PS, Pete, Pet\n",
      "bank/entities/Pete.md": "# Pete\n\naliases: Petey\n",
    });
    const logger = warnings();
    const load = entityAliasLoader(dir, logger);

    const first = await load();
    const second = await load();

    expect(entries(first.names)).toEqual([
      ["pet", "Peter"],
      ["pete", "Pete"],
      ["peter", "Peter"],
      ["petey", "Pete"],
      ["petra", "Petra"],
      ["ps", "Peter"],
    ]);
    expect(entries(second.names)).toEqual(entries(first.names));
    const message = "entity aliases: a name is claimed by two entity pages; the first claim keeps it";
    expect(logger.warned).toEqual([
      [message, { alias: "Pete", kept: "bank/entities/Pete.md", ignored: "bank/entities/Peter.md" }],
      [message, { alias: "PS", kept: "bank/entities/Peter.md", ignored: "bank/entities/Petra.md" }],
      [message, { alias: "Pet", kept: "bank/entities/Peter.md", ignored: "bank/entities/Petra.md" }],
    ]);
  });

  it("ignores pages whose links lead out of the workspace, and a missing folder", async () => {
    const dir = tempDir();
    const outside = tempDir();
    writeFiles(outside, { "Mallory.md": "aliases: Peter, Alice\n" });
    writeFiles(dir, { "bank/entities/Peter.md": "aliases: Pete\n", "MEMORY.md": "# Memory\n" });
    symlinkSync(join(outside, "Mallory.md"), join(dir, "bank/entities/Mallory.md"));
    const logger = warnings();

    const aliases = await entityAliasLoader(dir, logger)();

    expect(entries(aliases.names)).toEqual([
      ["pete", "Peter"],
      ["peter", "Peter"],
    ]);
    expect(logger.warned).toEqual([]);
    expect((await entityAliasLoader(outside, logger)()).names.size).toBe(0);
    expect((await entityAliasLoader(join(dir, "missing"), logger)()).names.size).toBe(0);
  });

  it("lets a linked bank/entities folder that leads out of the workspace declare nothing", async () => {
    const dir = tempDir();
    const outside = tempDir();
    writeFiles(outside, { "Peter.md": "aliases: Pete\n" });
    writeFiles(dir, { "bank/world.md": "# World\n" });
    symlinkSync(outside, join(dir, "bank/entities"));

    expect((await entityAliasLoader(dir, warnings())()).names.size).toBe(0);
  });
});
