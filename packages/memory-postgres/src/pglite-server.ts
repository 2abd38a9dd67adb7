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

class Connection {
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
      const message = this.nextMessage();
      if (message === null) return;
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
    // The client is gone; a failed ROLLBACK leaves nothing of its session to undo.
    if (this.inTransaction) await this.db.exec("ROLLBACK").catch(() => {});
    this.lock.release(this);
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
