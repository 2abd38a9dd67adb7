export { buildProgram, VERSION } from "./build-program.js";
export { CliContext, type GlobalOptions } from "./cli-context.js";
export { type CliDeps, type OutStream, processDeps } from "./cli-deps.js";
export { EXIT, exitCodeOf, UsageError } from "./exit-codes.js";
export { runCli } from "./run-cli.js";
