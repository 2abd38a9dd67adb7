import { isMemoryError } from "@claw/memory-api";
import { describe, expect, it } from "vitest";
import { connectionError, describeServer, redactedUrl } from "./connection-error.js";

describe("describing the server", () => {
  it("masks the password and drops the parameters of a URL", () => {
    expect(redactedUrl("postgres://claw:s3cret@db.internal:5433/claw?sslmode=require&password=x")).toBe(
      "postgres://claw:***@db.internal:5433/claw",
    );
    expect(redactedUrl("postgres://claw@db.internal/claw")).toBe("postgres://claw@db.internal/claw");
    expect(redactedUrl("host=db user=claw password=s3cret")).toBe(
      "the configured server (its connection string is not a URL)",
    );
  });

  it("a caller's pool configured by fields: host, port, user and database, the password masked", () => {
    expect(
      describeServer({ host: "db", port: 5433, user: "claw", password: "s3cret", database: "agents" }),
    ).toBe("postgres://claw:***@db:5433/agents");
    expect(describeServer({})).toBe("postgres://localhost:5432/");
  });
});

describe("why the connection failed", () => {
  const pool = { options: { connectionString: "postgres://claw:s3cret@db.internal:5432/claw" } };
  const failure = (message: string, code: string) => Object.assign(new Error(message), { code });

  it("says what to check by the server's SQLSTATE, or asks whether the server is there", () => {
    expect(
      connectionError(failure('password authentication failed for user "claw"', "28P01"), pool).message,
    ).toBe(
      'cannot connect to PostgreSQL at postgres://claw:***@db.internal:5432/claw (password authentication failed for user "claw"): check the user name and password',
    );
    expect(connectionError(failure('database "claw" does not exist', "3D000"), pool).message).toBe(
      'cannot connect to PostgreSQL at postgres://claw:***@db.internal:5432/claw (database "claw" does not exist): does the database exist?',
    );
    const refused = connectionError(failure("connect ECONNREFUSED 10.0.0.5:5432", "ECONNREFUSED"), pool);
    expect(isMemoryError(refused, "UNAVAILABLE") && refused.retryable).toBe(true);
    expect(refused.message).toBe(
      "cannot connect to PostgreSQL at postgres://claw:***@db.internal:5432/claw (connect ECONNREFUSED 10.0.0.5:5432): is the server running and reachable?",
    );
  });

  it("a name with several addresses fails with an empty message: the addresses' errors are the reason", () => {
    const both = Object.assign(
      new AggregateError([
        failure("connect ECONNREFUSED ::1:5432", "ECONNREFUSED"),
        failure("connect ECONNREFUSED 127.0.0.1:5432", "ECONNREFUSED"),
      ]),
      { code: "ECONNREFUSED" },
    );
    expect(connectionError(both, pool).message).toBe(
      "cannot connect to PostgreSQL at postgres://claw:***@db.internal:5432/claw (connect ECONNREFUSED ::1:5432; connect ECONNREFUSED 127.0.0.1:5432): is the server running and reachable?",
    );
  });
});
