// Keeps API keys out of what a provider passes on: error messages, and the cause chain that loggers
// print as readily as the message. One implementation for every vendor; vendors add key shapes.

/** What a redacted secret is replaced with. */
export const REDACTED = "[redacted]";

/** A secret's shape, for keys we were not told about (Google's `AIza…` keys, `?key=` in a URL). */
export interface SecretPattern {
  pattern: RegExp;
  /** Default "[redacted]"; may refer to groups (`$1[redacted]`) to keep what surrounds the secret. */
  replacement?: string;
}

/** What to redact from a message: literal secrets, and patterns of secrets we were not told about. */
export interface Redaction {
  /** Literal values, e.g. the key sent with the request; undefined and empty ones are skipped. */
  secrets: readonly (string | undefined)[];
  patterns?: readonly SecretPattern[];
  /**
   * What an error carries besides its message and stack that may echo a secret, e.g. an SDK's parsed
   * response body. Only looked at, never copied: a cause that holds a secret loses it.
   */
  detailsOf?: (error: unknown) => unknown;
}

/** How far down a cause chain we look (and copy); deeper links are dropped from a copy. */
const MAX_DEPTH = 8;
/** Plain facts a redacted copy keeps, so that classification (status 404, say) still works. */
const KEPT_FIELDS = ["status", "statusCode", "code"] as const;

/** `text` with every secret and every match of a secret pattern replaced. */
export function redactSecrets(text: string, redaction: Redaction): string {
  let out = text;
  for (const secret of redaction.secrets) {
    if (secret !== undefined && secret.length > 0) out = out.split(secret).join(REDACTED);
  }
  for (const { pattern, replacement } of redaction.patterns ?? []) {
    const global = pattern.global ? pattern : new RegExp(pattern.source, `${pattern.flags}g`);
    out = out.replace(global, replacement ?? REDACTED);
  }
  return out;
}

/**
 * The error itself when nothing in its cause chain (message, stack, details) holds a secret, so the
 * SDK's error stays inspectable; otherwise plain Error copies of the chain with the secrets removed,
 * keeping each link's name and its status and code. An error whose details cannot be read is treated
 * as holding a secret.
 */
export function redactCause(error: unknown, redaction: Redaction): unknown {
  if (!chainHoldsSecret(error, redaction)) return error;
  return redactedCopy(error, redaction, 0);
}

function chainHoldsSecret(error: unknown, redaction: Redaction): boolean {
  let link = error;
  for (let depth = 0; depth <= MAX_DEPTH && link !== undefined && link !== null; depth++) {
    if (holdsSecret(link, redaction)) return true;
    link = causeOf(link);
  }
  return false;
}

function holdsSecret(error: unknown, redaction: Redaction): boolean {
  let texts: string[];
  try {
    texts = [messageOf(error), error instanceof Error ? (error.stack ?? "") : ""];
    const details = redaction.detailsOf?.(error);
    if (details !== undefined) texts.push(JSON.stringify(details) ?? "");
  } catch {
    // Unserialisable details cannot be checked, so they count as a secret rather than risk one.
    return true;
  }
  return texts.some((text) => redactSecrets(text, redaction) !== text);
}

function redactedCopy(error: unknown, redaction: Redaction, depth: number): Error {
  const inner = depth < MAX_DEPTH ? causeOf(error) : undefined;
  const copy = new Error(
    redactSecrets(messageOf(error), redaction),
    inner === undefined || inner === null ? undefined : { cause: redactedCopy(inner, redaction, depth + 1) },
  );
  copy.name = error instanceof Error ? error.name : "Error";
  if (error instanceof Error && error.stack !== undefined) copy.stack = redactSecrets(error.stack, redaction);
  const fields = copy as unknown as Record<string, unknown>;
  for (const key of KEPT_FIELDS) {
    const value = (error as Record<string, unknown> | null)?.[key];
    if (typeof value === "number") fields[key] = value;
    else if (typeof value === "string") fields[key] = redactSecrets(value, redaction);
  }
  return copy;
}

function causeOf(error: unknown): unknown {
  return typeof error === "object" && error !== null ? (error as { cause?: unknown }).cause : undefined;
}

function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  return typeof error === "string" ? error : String(error);
}
