import type { Statement } from "better-sqlite3";
import type { StatementCache } from "../../schema/statement-cache.js";

/** Every statement a search ran that reads embeddings, with the arguments it ran with. */
export type Ran = Array<{ statement: Statement; args: unknown[] }>;

/** `statements`, recording into `ran` each `all()` of a statement reading `m.embedding`. */
export function recording(statements: StatementCache, ran: Ran): StatementCache {
  return {
    get(sql) {
      const statement = statements.get(sql);
      if (!sql.includes("m.embedding")) return statement;
      return new Proxy(statement, {
        get(target, property) {
          if (property !== "all") return Reflect.get(target, property);
          return (...args: unknown[]) => {
            ran.push({ statement: target, args });
            return target.all(...args);
          };
        },
      });
    },
    clear: statements.clear,
  };
}
