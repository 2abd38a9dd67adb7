/** Libraries never write to the console; they log through one of these. */
export interface Logger {
  /** Detail for diagnosing a problem; off unless verbose. */
  debug(message: string, data?: Record<string, unknown>): void;
  /** Something the operator may want to know about. */
  info(message: string, data?: Record<string, unknown>): void;
  /** A degraded state the caller can go on with (e.g. keyword-only recall). */
  warn(message: string, data?: Record<string, unknown>): void;
  /** A failure that was not thrown to the caller. */
  error(message: string, data?: Record<string, unknown>): void;
}

const noop = (): void => {};

/** The default logger: says nothing. */
export const silentLogger: Logger = Object.freeze({ debug: noop, info: noop, warn: noop, error: noop });
