import { describe, expect, it } from "vitest";
import { planTermsByDocuments } from "./term-plan.js";

const documents = new Map([
  ["user", 9_000],
  ["said", 4_000],
  ["kayak", 30],
]);

describe("planTermsByDocuments", () => {
  it("keeps every term of a store no larger than the budget, without looking at counts", () => {
    expect(planTermsByDocuments(["user", "kayak"], documents, 5_000, 5_000)).toEqual({
      kept: ["user", "kayak"],
      dropped: [],
      overBudget: false,
      newestRowid: 5_000,
      matchesAtMost: 5_000,
    });
  });

  it("keeps the rarest terms that fit the budget, in query order, and drops the rest most common first", () => {
    expect(planTermsByDocuments(["user", "said", "kayak"], documents, 5_000, 20_000)).toEqual({
      kept: ["said", "kayak"],
      dropped: ["user"],
      overBudget: false,
      newestRowid: 20_000,
      matchesAtMost: 4_030,
    });
  });

  it("keeps the rarest term even over the budget, and says so", () => {
    expect(planTermsByDocuments(["user", "said"], documents, 1_000, 20_000)).toMatchObject({
      kept: ["said"],
      dropped: ["user"],
      overBudget: true,
      matchesAtMost: 4_000,
    });
  });

  it("never drops a term it cannot measure, and then bounds the matches by the store", () => {
    expect(planTermsByDocuments(["user", "日本"], documents, 1_000, 20_000)).toMatchObject({
      kept: ["日本"],
      dropped: ["user"],
      overBudget: false,
      matchesAtMost: 20_000,
    });
  });
});
