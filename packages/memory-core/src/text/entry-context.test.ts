import { describe, expect, it } from "vitest";
import { dateContext, entryContext, PREVIOUS_TURN_MAX_CHARS } from "./entry-context.js";

describe("dateContext", () => {
  it("writes the date in the forms people ask for it", () => {
    expect(dateContext("2023-05-08T13:56:00Z")).toBe("2023-05-08 8 May 2023 Monday");
    expect(dateContext("2024-02-29 23:00:00")).toBe("2024-02-29 29 February 2024 Thursday");
  });

  it("is empty for a time it cannot read", () => {
    expect(dateContext("yesterday")).toBe("");
  });
});

describe("entryContext", () => {
  it("adds the previous turn, cut to a bounded length", () => {
    expect(entryContext("2023-05-08T13:56:00Z", "Which sport?")).toBe(
      "2023-05-08 8 May 2023 Monday\nWhich sport?",
    );
    const long = "x".repeat(PREVIOUS_TURN_MAX_CHARS * 2);
    expect(entryContext("2023-05-08T13:56:00Z", long).length).toBe(
      "2023-05-08 8 May 2023 Monday\n".length + PREVIOUS_TURN_MAX_CHARS,
    );
    expect(entryContext("2023-05-08T13:56:00Z", null)).toBe("2023-05-08 8 May 2023 Monday");
  });
});
