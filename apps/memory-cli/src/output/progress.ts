import type { OutStream } from "../cli-deps.js";

export interface Progress {
  update(done: number, total: number): void;
  finish(): void;
}

const SILENT: Progress = { update() {}, finish() {} };
const BAR_WIDTH = 24;

/**
 * Progress of long work on stderr: a bar redrawn in place on a terminal; elsewhere a plain line
 * each time another 10% is done (logs stay readable); nothing when quiet.
 */
export function createProgress(
  stream: OutStream,
  label: string,
  options: { quiet?: boolean } = {},
): Progress {
  if (options.quiet) return SILENT;
  if (stream.isTTY) {
    let drawn = false;
    return {
      update(done, total) {
        const ratio = total === 0 ? 1 : Math.min(1, done / total);
        const filled = Math.round(ratio * BAR_WIDTH);
        const bar = `${"█".repeat(filled)}${"░".repeat(BAR_WIDTH - filled)}`;
        stream.write(`\r${label} ${bar} ${Math.floor(ratio * 100)}% ${done}/${total}`);
        drawn = true;
      },
      finish() {
        if (drawn) stream.write("\n");
      },
    };
  }
  let lastStep = -1;
  return {
    update(done, total) {
      const step = total === 0 ? 10 : Math.floor((Math.min(done, total) / total) * 10);
      if (step <= lastStep) return;
      lastStep = step;
      stream.write(`${label}: ${step * 10}% (${done}/${total})\n`);
    },
    finish() {},
  };
}
