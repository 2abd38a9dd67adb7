import pg from "pg";

/**
 * A pool of `max` connections to `url` that keeps the text of every statement it sends, white
 * space folded: a test's count of round trips, or a check that some statement was (not) sent.
 */
export function countedPool(url: string, max = 2): { pool: pg.Pool; sent: string[] } {
  const pool = new pg.Pool({ connectionString: url, max });
  const sent: string[] = [];
  pool.on("connect", (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
      const first = args[0] as string | { text?: string };
      sent.push((typeof first === "string" ? first : String(first.text)).replace(/\s+/g, " ").trim());
      return query(...args);
    };
  });
  return { pool, sent };
}
