import { describe, expect, it } from "vitest";
import { composePage } from "../reflect/page-block.js";
import { aliasesDeclaredIn } from "./alias-syntax.js";

describe("aliasesDeclaredIn", () => {
  it("reads an `aliases:` line, comma-separated, in any case and as a list item", () => {
    expect(aliasesDeclaredIn("# Peter\n\naliases: Pete, P. Steinberger, 彼得\n")).toEqual([
      "Pete",
      "P. Steinberger",
      "彼得",
    ]);
    expect(aliasesDeclaredIn("# Peter\n\nAliases: Pete\n")).toEqual(["Pete"]);
    expect(aliasesDeclaredIn("# Peter\n\n- aliases: Pete,Steinberger\n* ALIASES : PS\n")).toEqual([
      "Pete",
      "Steinberger",
      "PS",
    ]);
  });

  it("splits CJK lists on 、 and ， and accepts a full-width colon", () => {
    expect(aliasesDeclaredIn("# 张三\n\naliases：老张、小张，三哥\n")).toEqual(["老张", "小张", "三哥"]);
  });

  it("drops a leading @ (or ＠) and empty names, and keeps quoted commas", () => {
    expect(aliasesDeclaredIn('aliases: @Pete, ＠彼得, , "Steinberger, P."\n')).toEqual([
      "Pete",
      "彼得",
      "Steinberger, P.",
    ]);
    expect(aliasesDeclaredIn("aliases:\n")).toEqual([]);
  });

  it("reads a front-matter inline list, scalar list and block list", () => {
    expect(aliasesDeclaredIn("---\naliases: [Pete, 'P. Steinberger', \"@彼得\"]\n---\n# Peter\n")).toEqual([
      "Pete",
      "P. Steinberger",
      "彼得",
    ]);
    expect(aliasesDeclaredIn("---\ntitle: Peter\nAliases: Pete, Steinberger # short forms\n---\n")).toEqual([
      "Pete",
      "Steinberger",
    ]);
    expect(
      aliasesDeclaredIn(
        "---\ntags: [person]\naliases:\n  - Pete\n\n  - \"Steinberger, P.\"\n  - '@彼得'\nrole: maintainer\n---\n# Peter\n",
      ),
    ).toEqual(["Pete", "Steinberger, P.", "彼得"]);
    expect(aliasesDeclaredIn("---\naliases:\n- Pete\n- PS\n---\n")).toEqual(["Pete", "PS"]);
  });

  it("combines front matter and lines, and ignores fenced code and the generated block", () => {
    const generated = composePage(null, "Peter", "- 2026-01-02 · world · aliases: Generated", "0123");
    const page = [
      "---",
      "aliases: [Pete]",
      "---",
      generated.trimEnd(),
      "",
      "```markdown",
      "aliases: InCode",
      "```",
      "",
      "aliases: PS",
      "Not an alias line: aliases: nope",
      "",
    ].join("\n");
    expect(aliasesDeclaredIn(page)).toEqual(["Pete", "PS"]);
  });

  it("finds nothing in a page without aliases", () => {
    expect(aliasesDeclaredIn("# Alice\n\nMet her at RustConf.\n")).toEqual([]);
    expect(aliasesDeclaredIn("---\ntitle: Alice\n---\n# Alice\n")).toEqual([]);
  });
});
