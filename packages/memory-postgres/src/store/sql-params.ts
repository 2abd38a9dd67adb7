/** Bound parameters for one statement: `add(value)` returns its placeholder (`$3`). */
export class SqlParams {
  readonly values: unknown[] = [];

  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}
