/** What the curator model proposed, before checking the keys against the store. */
export interface CuratorProposal {
  delete: string[];
  merge: Array<{ keys: string[]; content: string }>;
}

/**
 * Reads the model's answer: JSON (a ```json fence around it is tolerated) with optional `delete`
 * and `merge` arrays. Returns an error message instead when the answer is not that shape; items of
 * the wrong type are dropped.
 */
export function parseCuratorAnswer(answer: string): CuratorProposal | string {
  const text = answer.trim().replace(/^```(?:json)?\s*\n([\s\S]*?)\n?```$/u, "$1");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return `the curator's answer is not JSON: ${JSON.stringify(answer.slice(0, 120))}`;
  }
  if (value === null || typeof value !== "object" || Array.isArray(value))
    return "the curator's answer is not a JSON object";
  const { delete: del = [], merge = [] } = value as { delete?: unknown; merge?: unknown };
  if (!Array.isArray(del) || !Array.isArray(merge))
    return "the curator's answer has a `delete` or `merge` that is not an array";
  return {
    delete: del.filter((k): k is string => typeof k === "string"),
    merge: merge.flatMap((group: unknown) => {
      if (group === null || typeof group !== "object") return [];
      const { keys, content } = group as { keys?: unknown; content?: unknown };
      if (!Array.isArray(keys) || typeof content !== "string" || content.trim() === "") return [];
      return [{ keys: keys.filter((k): k is string => typeof k === "string"), content: content.trim() }];
    }),
  };
}
