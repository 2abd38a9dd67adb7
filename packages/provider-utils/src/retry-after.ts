// How long a provider asks us to wait: OpenAI's precise `retry-after-ms`, else `Retry-After` as
// delta-seconds or an HTTP date (RFC 9110 §10.2.3). Anything else is ignored, never guessed at.

/** Anything with `get(name)`: fetch's Headers, or an SDK's header map. */
export interface HeaderReader {
  /** The header's value, or null/undefined when absent. */
  get(name: string): string | null | undefined;
}

const DECIMAL = /^\d+(\.\d+)?$/;
/** An HTTP date names its day or month; a bare number (say "-1") is no date. */
const HAS_LETTER = /[a-z]/i;

/** Seconds to wait, from a response's headers; `now` (ms since the epoch) dates an HTTP-date value. */
export function parseRetryAfter(
  headers: HeaderReader | null | undefined,
  now: number = Date.now(),
): number | undefined {
  if (headers === null || headers === undefined) return undefined;
  const ms = headers.get("retry-after-ms")?.trim();
  if (ms !== undefined && DECIMAL.test(ms)) return Number(ms) / 1000;
  return parseRetryAfterValue(headers.get("retry-after"), now);
}

/** Seconds to wait, from one `Retry-After` value; an HTTP date in the past is 0. */
export function parseRetryAfterValue(
  value: string | null | undefined,
  now: number = Date.now(),
): number | undefined {
  const trimmed = value?.trim();
  if (trimmed === undefined || trimmed === "") return undefined;
  if (DECIMAL.test(trimmed)) return Number(trimmed);
  if (!HAS_LETTER.test(trimmed)) return undefined;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  // Whole seconds, rounded up: an HTTP date has no finer grain, and retrying early wastes a request.
  return Math.max(0, Math.ceil((date - now) / 1000));
}
