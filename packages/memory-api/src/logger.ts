/** Libraries never write to the console; they log through one of these. */
export interface Logger {
  debug(message: string, data?: Record<string, unknown>): void;
  info(message: string, data?: Record<string, unknown>): void;
  warn(message: string, data?: Record<string, unknown>): void;
  error(message: string, data?: Record<string, unknown>): void;
}

const noop = (): void => {};

/** The default logger: says nothing. */
export const silentLogger: Logger = Object.freeze({ debug: noop, info: noop, warn: noop, error: noop });
