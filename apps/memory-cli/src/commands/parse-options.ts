import { UsageError } from "../exit-codes.js";

/** A positive integer option, or a usage error naming the option. */
export function integerOption(value: string | undefined, name: string, min = 1): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min)
    throw new UsageError(`${name} expects an integer ≥ ${min}, got ${JSON.stringify(value)}`);
  return n;
}

export function numberOption(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === "" || !Number.isFinite(n))
    throw new UsageError(`${name} expects a number, got ${JSON.stringify(value)}`);
  return n;
}

const RELATIVE = /^(\d+)\s*(m|h|d|w|y)$/;
const UNIT_MS: Record<string, number> = {
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
  y: 31_536_000_000,
};

/** `--since 30d`, `--since 2026-11-01`: a relative age ("30d", "12h") or a date/time. */
export function timeOption(value: string | undefined, name: string, now: Date): string | undefined {
  if (value === undefined) return undefined;
  const relative = RELATIVE.exec(value.trim());
  if (relative !== null) {
    return new Date(
      now.getTime() - Number(relative[1]) * (UNIT_MS[relative[2] as string] as number),
    ).toISOString();
  }
  const time = Date.parse(value);
  if (Number.isNaN(time))
    throw new UsageError(
      `${name} expects a date (2026-11-01) or an age (30d, 12h), got ${JSON.stringify(value)}`,
    );
  return new Date(time).toISOString();
}

/** `--category core,daily` or a repeated `--category`: the list, or undefined. */
export function listOption(value: string[] | string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const items = (Array.isArray(value) ? value : [value]).flatMap((v) => v.split(",")).map((v) => v.trim());
  const kept = items.filter((v) => v !== "");
  return kept.length === 0 ? undefined : kept;
}

/** Everything on stdin as text (for `store <key>` without content, `import` without a file). */
export async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream)
    chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString("utf8");
}
