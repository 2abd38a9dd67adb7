import { stripColors } from "./colors.js";

export interface Column<T> {
  header: string;
  value(row: T): string;
  align?: "left" | "right";
  /** The column that takes what is left of the terminal width, cut with "…". */
  flexible?: boolean;
}

/**
 * Rows as aligned text columns under a header (none with `header: false`); the flexible column is
 * fitted to `width`.
 */
export function renderTable<T>(
  rows: readonly T[],
  columns: readonly Column<T>[],
  width = 120,
  { header = true }: { header?: boolean } = {},
): string {
  const cells = rows.map((row) => columns.map((c) => oneLine(c.value(row))));
  const widths = columns.map((c, i) =>
    Math.max(header ? visible(c.header) : 0, ...cells.map((r) => visible(r[i] as string))),
  );
  const flexible = columns.findIndex((c) => c.flexible);
  if (flexible !== -1) {
    const others = widths.reduce((sum, w, i) => (i === flexible ? sum : sum + w + 2), 0);
    widths[flexible] = Math.max(10, Math.min(widths[flexible] as number, width - others));
  }
  const line = (values: readonly string[]) =>
    values
      .map((value, i) => {
        const w = widths[i] as number;
        const fitted =
          visible(value) > w
            ? `${Array.from(value)
                .slice(0, w - 1)
                .join("")}…`
            : value;
        const pad = " ".repeat(Math.max(0, w - visible(fitted)));
        return columns[i]?.align === "right" ? pad + fitted : fitted + pad;
      })
      .join("  ")
      .trimEnd();
  return [...(header ? [line(columns.map((c) => c.header))] : []), ...cells.map(line)].join("\n");
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

function visible(text: string): number {
  return Array.from(stripColors(text)).length;
}
