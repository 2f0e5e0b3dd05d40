import { type AddressInfo, createServer as createNetServer } from "node:net";
import { serve } from "@hono/node-server";
import type { Hono } from "hono";

export interface RunningServer {
  readonly port: number;
  /** the address it is bound to ("::" or "0.0.0.0": every interface) */
  readonly address: string;
  close(): Promise<void>;
}

/** listens on a port (0 picks a free one) and resolves once it accepts connections. */
export function listen(
  app: Pick<Hono, "fetch">,
  port: number,
  hostname?: string,
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
