export interface Colors {
  bold(text: string): string;
  dim(text: string): string;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  cyan(text: string): string;
}

const wrap = (open: number, close: number) => (text: string) => `\u001b[${open}m${text}\u001b[${close}m`;

const ON: Colors = {
  bold: wrap(1, 22),
  dim: wrap(2, 22),
  red: wrap(31, 39),
  green: wrap(32, 39),
  yellow: wrap(33, 39),
  cyan: wrap(36, 39),
};

const same = (text: string) => text;
const OFF: Colors = { bold: same, dim: same, red: same, green: same, yellow: same, cyan: same };

/** Colours only on a terminal, and never when NO_COLOR is set (https://no-color.org). */
export function colorsFor(
  isTTY: boolean | undefined,
  env: Readonly<Record<string, string | undefined>>,
): Colors {
  const noColor = env.NO_COLOR !== undefined && env.NO_COLOR !== "";
  return isTTY === true && !noColor ? ON : OFF;
}

/** The text without colour codes (for measuring widths). */
export function stripColors(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching the escape character is the point
  return text.replace(/\u001b\[[0-9;]*m/g, "");
}
