// Comparing a block's stdout with the ```text block shown after it: line by line, trailing whitespace
// of each line and trailing blank lines ignored; an expected line that is exactly `...` stands for
// any number of lines (none included). A mismatch comes with a diff naming the lines of the file.

export const WILDCARD = "...";

/** Lines without trailing whitespace, trailing blank lines dropped. */
export function normalizeLines(text) {
  const lines = text
    .replace(/\r\n?/g, "\n")
    .split("\n")
    .map((line) => line.replace(/\s+$/, ""));
  while (lines.length && lines.at(-1) === "") lines.pop();
  return lines;
}

/**
 * Aligns `expected` (with `...` lines) to `actual`: the fewest expected lines missing plus actual
 * lines extra. Returns `{ ok, ops }`, ops in order: `{ kind: "same" | "wild" | "missing" | "extra",
 * expected?: index, actual?: index }`. `ok` when nothing is missing or extra.
 */
export function alignOutput(expected, actual) {
  const n = expected.length;
  const m = actual.length;
  const width = m + 1;
  // cost[i * width + j]: the least cost of matching expected[i..] with actual[j..].
  const cost = new Int32Array((n + 1) * width);
  for (let j = m; j >= 0; j--) cost[n * width + j] = m - j;
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m; j >= 0; j--) {
      const at = i * width + j;
      if (expected[i] === WILDCARD) {
        cost[at] = Math.min(cost[at + width], j < m ? cost[at + 1] : Number.MAX_SAFE_INTEGER);
        continue;
      }
      let best = 1 + cost[at + width];
      if (j < m) best = Math.min(best, 1 + cost[at + 1]);
      if (j < m && expected[i] === actual[j]) best = Math.min(best, cost[at + width + 1]);
      cost[at] = best;
    }
  }
  const ops = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    const at = i * width + j;
    if (i === n) ops.push({ kind: "extra", actual: j++ });
    else if (expected[i] === WILDCARD) {
      if (j < m && cost[at] === cost[at + 1]) ops.push({ kind: "wild", expected: i, actual: j++ });
      else i++;
    } else if (j < m && expected[i] === actual[j] && cost[at] === cost[at + width + 1])
      ops.push({ kind: "same", expected: i++, actual: j++ });
    else if (cost[at] === 1 + cost[at + width]) ops.push({ kind: "missing", expected: i++ });
    else ops.push({ kind: "extra", actual: j++ });
  }
  return { ok: cost[0] === 0, ops };
}

/**
 * A unified-style diff of expected (`-`) and actual (`+`) output, 3 lines of context, each hunk
 * headed by `file:line` of its first expected line (`firstLine`: the file line of expected[0]).
 */
export function renderDiff(expected, actual, ops, file, firstLine, context = 3) {
  const changed = ops.map((op) => op.kind === "missing" || op.kind === "extra");
  const shown = ops.map((_, k) => {
    for (let d = -context; d <= context; d++) if (changed[k + d]) return true;
    return false;
  });
  const out = [`--- expected (${file}:${firstLine})`, "+++ actual (stdout)"];
  for (let k = 0; k < ops.length; k++) {
    if (!shown[k]) continue;
    if (k === 0 || !shown[k - 1]) {
      const next = ops.slice(k).find((op) => op.expected !== undefined);
      const line = firstLine + (next ? next.expected : expected.length);
      out.push(`@@ ${file}:${line} @@`);
    }
    const op = ops[k];
    if (op.kind === "missing") out.push(`-${expected[op.expected]}`);
    else if (op.kind === "extra") out.push(`+${actual[op.actual]}`);
    else out.push(` ${actual[op.actual]}`);
  }
  return out.join("\n");
}

/** `undefined` when `stdout` matches the expected text, else the diff. */
export function compareOutput(expectedText, stdout, file, firstLine) {
  const expected = normalizeLines(expectedText);
  const actual = normalizeLines(stdout);
  const { ok, ops } = alignOutput(expected, actual);
  return ok ? undefined : renderDiff(expected, actual, ops, file, firstLine);
}
