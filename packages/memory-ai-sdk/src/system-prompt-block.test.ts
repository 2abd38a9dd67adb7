import { describe, expect, it } from "vitest";
import type { Prompt } from "./model-types.js";
import { lastUserText, renderMemoryBlock, withMemoryBlock } from "./system-prompt-block.js";

const user = (text: string): Prompt[number] => ({ role: "user", content: [{ type: "text", text }] });
const block = (line: string) => renderMemoryBlock([`[memory context]\n- ${line}`]);

describe("the memory block in a system prompt", () => {
  it("is a system message of its own when the prompt has none, and is replaced there next time", () => {
    const once = withMemoryBlock([user("hi")], block("old"));
    expect(once).toEqual([
      { role: "system", content: "<claw-memory>\n[memory context]\n- old\n</claw-memory>" },
      user("hi"),
    ]);
    expect(withMemoryBlock(once, block("new"))).toEqual([
      { role: "system", content: "<claw-memory>\n[memory context]\n- new\n</claw-memory>" },
      user("hi"),
    ]);
    expect(withMemoryBlock(once, "")).toEqual([user("hi")]);
  });

  it("goes after the caller's own system text, which stays as it was", () => {
    const prompt: Prompt = [
      { role: "system", content: "Be brief." },
      user("hi"),
      { role: "system", content: "Later." },
    ];
    const withBlock = withMemoryBlock(prompt, block("fact"));
    expect(withBlock[0]).toEqual({
      role: "system",
      content: "Be brief.\n\n<claw-memory>\n[memory context]\n- fact\n</claw-memory>",
    });
    expect(withBlock.slice(1)).toEqual(prompt.slice(1));
    expect(withMemoryBlock(withBlock, "")).toEqual(prompt);
  });

  it("renders nothing for empty parts", () => {
    expect(renderMemoryBlock(["", ""])).toBe("");
    expect(renderMemoryBlock(["## core", "", "[memory context]"])).toBe(
      "<claw-memory>\n## core\n\n[memory context]\n</claw-memory>",
    );
  });

  it("reads the text of the last user message", () => {
    const prompt: Prompt = [
      user("first"),
      { role: "assistant", content: [{ type: "text", text: "answer" }] },
      {
        role: "user",
        content: [
          { type: "text", text: "second" },
          { type: "text", text: "part two" },
        ],
      },
      { role: "tool", content: [] },
    ];
    expect(lastUserText(prompt)).toBe("second\npart two");
    expect(lastUserText([{ role: "system", content: "x" }])).toBe("");
  });
});
