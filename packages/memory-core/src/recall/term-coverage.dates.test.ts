import { describe, expect, it } from "vitest";
import { termCoverage } from "./term-coverage.js";

const painting = { key: "D18:3", content: "Melanie: here is the painting I finished for Caroline" };
const terms = ["painting", "melanie", "caroline", "october", "13", "2023"];

describe("term coverage of a question that names a date", () => {
  it("finds the date's terms in the day the entry was written", () => {
    expect(termCoverage({ ...painting, created_at: "2023-10-13T10:31:00Z" }, terms)).toBe(1);
    // Another day of the same year: the year and the day of the month, not the month.
    expect(termCoverage({ ...painting, created_at: "2023-11-13T10:31:00Z" }, terms)).toBeCloseTo(5 / 6, 12);
    expect(termCoverage({ ...painting, created_at: "2022-01-02T10:31:00Z" }, terms)).toBe(0.5);
    // Without a date, the words alone.
    expect(termCoverage(painting, terms)).toBe(0.5);
  });

  it("finds a weekday and the ISO form's parts", () => {
    const notes = { key: "n", content: "standup notes", created_at: "2023-10-13T09:00:00Z" };
    expect(termCoverage(notes, ["friday", "standup"])).toBe(1);
    expect(termCoverage(notes, ["2023", "10", "13", "standup"])).toBe(1);
    expect(termCoverage(notes, ["monday", "standup"])).toBe(0.5);
  });

  it("leaves numbers alone when the question names no month, weekday or year", () => {
    const tips = { key: "t", content: "my top tips for sleep", created_at: "2023-05-03T09:00:00Z" };
    expect(termCoverage(tips, ["top", "3", "tips"])).toBeCloseTo(2 / 3, 12);
    // With a year, "3" is the day of the month.
    expect(termCoverage(tips, ["top", "3", "tips", "2023"])).toBe(1);
    expect(termCoverage(tips, ["top", "4", "tips", "2023"])).toBe(0.75);
  });

  it("counts the date beside the best passage of a long entry", () => {
    const filler = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(" ");
    const long = {
      key: "l",
      content: `deadline ${filler(150)} launch ${filler(150)}`,
      created_at: "2024-03-01T09:00:00Z",
    };
    // One passage holds one of deadline/launch; the month is the entry's own, wherever its words are.
    expect(termCoverage(long, ["deadline", "launch", "march"])).toBeCloseTo(2 / 3, 12);
  });
});
