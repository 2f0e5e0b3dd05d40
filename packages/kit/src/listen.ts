import { type AddressInfo, createServer as createNetServer } from "node:net";
import { serve } from "@hono/node-server";
import type { Hono } from "hono";

export interface RunningServer {
  readonly port: number;
  /** the address it is bound to ("::" or "0.0.0.0": every interface) */
  readonly address: string;
  close(): Promise<void>;
}

export interface ListenOptions {
  /**
   * never close a connection for being idle: only the client does. For a simulator whose
   * client runs in the same process (a test): Node closes an idle keep-alive socket after
   * 5 s, and when the process was held past that (a busy machine, PGlite), the client
   * could write its next request to the socket in the same turn the server's timer closed
   * it, and a request that is never retried (an order) came back ECONNRESET. Not for a port
   * the internet reaches: idle sockets would pile up.
   */
  keepIdleConnections?: boolean;
}

/** listens on a port (0 picks a free one) and resolves once it accepts connections. */
export function listen(
  app: Pick<Hono, "fetch">,
  port: number,
  hostname?: string,
  options: ListenOptions = {},
): Promise<RunningServer> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: app.fetch, port, hostname }, (info) => {
      resolve({
        port: (info as AddressInfo).port,
        address: (info as AddressInfo).address,
        close: () =>
          new Promise<void>((done) => {
            // idle keep-alive sockets would hold the process open past Ctrl-C
            if ("closeAllConnections" in server) server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
    server.once("error", reject);
    // 0: no idle timeout, and no Keep-Alive hint, so the client's own idle limit decides
    if (options.keepIdleConnections && "keepAliveTimeout" in server) server.keepAliveTimeout = 0;
  });
}

/** a free loopback port, for a server that must know its own address before it listens */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createNetServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}
