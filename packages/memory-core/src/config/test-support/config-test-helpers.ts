// Helpers shared by the config tests: a logger that records, and catching what a call throws.
import type { Logger } from "@claw/memory-api";

export interface LogRecord {
  level: "debug" | "info" | "warn" | "error";
  message: string;
  data?: Record<string, unknown>;
}

export interface CapturingLogger extends Logger {
  records: LogRecord[];
  messages(level: LogRecord["level"]): string[];
}

export function captureLogger(): CapturingLogger {
  const records: LogRecord[] = [];
  const record =
    (level: LogRecord["level"]) =>
    (message: string, data?: Record<string, unknown>): void => {
      records.push(data === undefined ? { level, message } : { level, message, data });
    };
  return {
    records,
    debug: record("debug"),
    info: record("info"),
    warn: record("warn"),
    error: record("error"),
    messages: (level) => records.filter((entry) => entry.level === level).map((entry) => entry.message),
  };
}

/** The error `action` throws; fails the test when it returns. */
export function thrownBy(action: () => unknown): Error {
  try {
    action();
  } catch (error) {
    if (error instanceof Error) return error;
    throw new Error(`expected an Error to be thrown, got ${String(error)}`);
  }
  throw new Error("expected the call to throw, it returned");
}

/** The error `promise` rejects with; fails the test when it resolves. */
export async function rejectionOf(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof Error) return error;
    throw new Error(`expected an Error rejection, got ${String(error)}`);
  }
  throw new Error("expected the promise to reject, it resolved");
}
