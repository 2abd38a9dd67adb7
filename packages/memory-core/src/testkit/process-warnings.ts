import { onTestFinished } from "vitest";

/** Every process warning emitted from now until the test ends, as `Name: message`. */
export function captureProcessWarnings(): string[] {
  const warnings: string[] = [];
  const listener = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
  process.on("warning", listener);
  onTestFinished(() => {
    process.off("warning", listener);
  });
  return warnings;
}
