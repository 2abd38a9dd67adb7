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

/**
 * `--since 30d`, `--since 2026-11-01`: an age ("30m", "12h", "7d", "2w", "1y"), a day or a
 * timestamp, read by the parser every interface uses (memory-core's parseTimeBound, loaded when
 * needed so that the CLI starts fast); a bad value is a usage error naming the option.
 */
export async function timeOption(
  value: string | undefined,
  name: string,
  now: Date,
): Promise<string | undefined> {
  if (value === undefined) return undefined;
  const { parseTimeBound } = await import("@claw/memory-core");
  try {
    return parseTimeBound(value, now, name);
  } catch (error) {
    // The message names the option: "--since: expected an age (…), got …".
    throw new UsageError((error as Error).message);
  }
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
