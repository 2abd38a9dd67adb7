// A loopback stand-in for the model hub: serves files under `/<repo>/resolve/main/<path>`, honours
// Range requests and can cut a connection mid-file, recording every request it sees.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordedRequest {
  url: string;
  range?: string;
  status: number;
}

export interface ModelServer {
  baseUrl: string;
  requests: RecordedRequest[];
  /** The next response for this URL path sends only this many bytes, then destroys the socket. */
  cutNext(path: string, afterBytes: number): void;
  close(): Promise<void>;
}

function parseRange(header: string | undefined, size: number): number | undefined {
  const match = /^bytes=(\d+)-$/.exec(header ?? "");
  if (match === null) return undefined;
  const start = Number(match[1]);
  return start < size ? start : undefined;
}

export async function startModelServer(files: Record<string, Uint8Array>): Promise<ModelServer> {
  const requests: RecordedRequest[] = [];
  const cuts = new Map<string, number>();
  const server: Server = createServer((req: IncomingMessage, res) => {
    const url = req.url ?? "/";
    const body = files[decodeURIComponent(url)];
    const record = (status: number) =>
      requests.push({ url, status, ...(req.headers.range !== undefined && { range: req.headers.range }) });
    if (body === undefined) {
      record(404);
      res.writeHead(404).end("not found");
      return;
    }
    const start = parseRange(req.headers.range, body.byteLength);
    const slice = start === undefined ? body : body.subarray(start);
    const status = start === undefined ? 200 : 206;
    record(status);
    res.writeHead(status, {
      "Content-Type": "application/octet-stream",
      "Content-Length": String(slice.byteLength),
      "Accept-Ranges": "bytes",
      ...(start !== undefined && {
        "Content-Range": `bytes ${start}-${body.byteLength - 1}/${body.byteLength}`,
      }),
    });
    const cut = cuts.get(url);
    if (cut === undefined) {
      res.end(slice);
      return;
    }
    cuts.delete(url);
    res.write(slice.subarray(0, cut), () => {
      // Give the client time to take the bytes in before the connection drops.
      setTimeout(() => res.socket?.destroy(), 50);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    cutNext: (path, afterBytes) => cuts.set(path, afterBytes),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
