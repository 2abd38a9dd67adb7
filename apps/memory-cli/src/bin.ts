#!/usr/bin/env node
import { createInterface } from "node:readline/promises";
import { processDeps } from "./cli-deps.js";
import { runCli } from "./run-cli.js";

const deps = processDeps();
deps.confirm = async (question) => {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return /^y(es)?$/i.test((await rl.question(`${question} [y/N] `)).trim());
  } finally {
    rl.close();
  }
};
process.exitCode = await runCli(process.argv.slice(2), deps);
