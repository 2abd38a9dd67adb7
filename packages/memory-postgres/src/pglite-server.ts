// `@claw/memory-postgres/pglite-server`, not part of the main entry: a loopback PostgreSQL
// wire-protocol server in front of PGlite (embedded PostgreSQL), for tests,
// benchmarks and local development: the real `pg` driver connects to it, any number of
// connections at once. PGlite itself is the caller's (a dev dependency here; only its type is used).
//
// PGlite is one backend session. @electric-sql/pglite-socket queues messages one at a time, so
// the extended-protocol messages of two connections (Parse/Bind/Execute/Sync) can interleave and
// one connection then executes the other's portal ('portal "" does not exist'). Here a
// connection's messages up to its Sync (or simple Query) run as one group under a lock, and the
// lock stays with the connection while it is inside a transaction: each connection sees a session
// of its own, one at a time — like a server whose every transaction is serialisable, trivially.
// Prepared statements are the session's too: each connection's statement names are prefixed with
// its own (`c3_…`), so two connections preparing the same name do not collide, and a closed
// connection's statements are deallocated.
import { createServer, type Server, type Socket } from "node:net";
import type { PGlite } from "@electric-sql/pglite";

const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;
/** Frontend messages that end a group: Sync, Query, Terminate. */
const GROUP_END = new Set(["S", "Q", "X"]);

export interface PgliteSocketServer {
  url: string;
  close(): Promise<void>;
}

export async function servePglite(db: PGlite): Promise<PgliteSocketServer> {
  const lock = new SessionLock();
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.setNoDelay(true);
    const connection = new Connection(db, socket, lock);
    socket.on("data", (chunk) => connection.receive(chunk));
    socket.on("error", () => socket.destroy());
    socket.on("close", () => {
      sockets.delete(socket);
      void connection.closed();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Who may use the session; a promise chain, handed over in arrival order. */
class SessionLock {
  private owner: Connection | null = null;
  private waiters: Array<{ connection: Connection; grant: () => void }> = [];

  async acquire(connection: Connection): Promise<void> {
    if (this.owner === connection) return;
    if (this.owner === null) {
      this.owner = connection;
      return;
    }
    await new Promise<void>((grant) => this.waiters.push({ connection, grant }));
  }

  release(connection: Connection): void {
    if (this.owner !== connection) return;
    const next = this.waiters.shift();
    this.owner = next?.connection ?? null;
    next?.grant();
  }
}

let connections = 0;

class Connection {
  private readonly prefix = `c${++connections}_`;
  private readonly statements = new Set<string>();
  private buffer = Buffer.alloc(0);
  private started = false;
  private group: Uint8Array[] = [];
  private work: Promise<void> = Promise.resolve();
  private inTransaction = false;

  constructor(
    private readonly db: PGlite,
    private readonly socket: Socket,
    private readonly lock: SessionLock,
  ) {}

  receive(chunk: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    for (;;) {
      const read = this.nextMessage();
      if (read === null) return;
      const message = this.started ? this.ownNames(read) : read;
      this.group.push(message);
      const type = this.started ? String.fromCharCode(message[0] as number) : "startup";
      if (!this.started && message.length >= 8) {
        const code = Buffer.from(message).readInt32BE(4);
        if (code === SSL_REQUEST || code === GSSENC_REQUEST) {
          this.group = [];
          this.socket.write("N");
          continue;
        }
        if (code === CANCEL_REQUEST) {
          this.group = [];
          continue;
        }
        this.started = true;
      }
      if (type === "startup" || GROUP_END.has(type)) this.runGroup(this.group.splice(0));
    }
  }

  async closed(): Promise<void> {
    await this.work;
    await this.lock.acquire(this);
    try {
      // The client is gone; a failed ROLLBACK leaves nothing of its session to undo.
      if (this.inTransaction) await this.db.exec("ROLLBACK").catch(() => {});
      // Its prepared statements go with it (a failure leaves them to the session, named apart).
      for (const name of this.statements) {
        await this.db.exec(`DEALLOCATE "${name.replaceAll('"', '""')}"`).catch(() => {});
      }
    } finally {
      this.lock.release(this);
    }
  }

  /**
   * `message` with the statement it names (Parse, Bind, Describe or Close of a statement) renamed
   * into this connection's own names; the unnamed statement and other messages pass unchanged.
   */
  private ownNames(message: Uint8Array): Uint8Array {
    const type = String.fromCharCode(message[0] as number);
    const bytes = Buffer.from(message.buffer, message.byteOffset, message.length);
    let start: number;
    if (type === "P") start = 5;
    else if (type === "B") start = bytes.indexOf(0, 5) + 1;
    else if ((type === "D" || type === "C") && bytes[5] === 0x53) start = 6;
    else return message;
    const end = bytes.indexOf(0, start);
    if (start <= 0 || end <= start) return message;
    const name = `${this.prefix}${bytes.toString("utf8", start, end)}`;
    if (type === "P") this.statements.add(name);
    if (type === "C") this.statements.delete(name);
    const renamed = Buffer.concat([bytes.subarray(0, start), Buffer.from(name, "utf8"), bytes.subarray(end)]);
    renamed.writeInt32BE(renamed.length - 1, 1);
    return renamed;
  }

  private nextMessage(): Uint8Array | null {
    const headerLength = this.started ? 5 : 4;
    if (this.buffer.length < headerLength) return null;
    const length = this.started ? 1 + this.buffer.readInt32BE(1) : this.buffer.readInt32BE(0);
    if (this.buffer.length < length) return null;
    const message = new Uint8Array(this.buffer.subarray(0, length));
    this.buffer = this.buffer.subarray(length);
    return message;
  }

  private runGroup(messages: Uint8Array[]): void {
    this.work = this.work.then(async () => {
      await this.lock.acquire(this);
      // The response ends with ReadyForQuery: 'Z', length 5, then the transaction status.
      let tail = Buffer.alloc(0);
      for (const message of messages) {
        await this.db.runExclusive(() =>
          this.db.execProtocolRawStream(message, {
            onRawData: (data) => {
              // A copy: `data` is a view of PGlite's memory, reused once this callback returns,
              // while the socket may still hold the chunk in its queue.
              const chunk = Buffer.from(data);
              tail = Buffer.concat([tail, chunk]).subarray(-6);
              if (!this.socket.destroyed) this.socket.write(chunk);
            },
          }),
        );
      }
      const status = tail.length === 6 && tail[0] === 0x5a && tail.readInt32BE(1) === 5 ? tail[5] : 0x49;
      // 'T' in a transaction, 'E' in a failed one: keep the session until it ends.
      this.inTransaction = status !== 0x49;
      if (!this.inTransaction) this.lock.release(this);
    });
  }
}
