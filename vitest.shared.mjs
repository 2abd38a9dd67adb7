// What every package's vitest config shares: generous timeouts, because the suite must pass on a
// busy 2-core machine (CI may be doing other work). Speed is measured in benchmarks/, never here.
export const sharedTestOptions = {
  testTimeout: 60_000,
  hookTimeout: 60_000,
  teardownTimeout: 60_000,
};
