/** A piece of SQL and the values of its `?` parameters, in order. */
export interface SqlFragment {
  sql: string;
  params: unknown[];
}
