import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import type { Hono } from "hono";

export interface RunningServer {
  readonly port: number;
  close(): Promise<void>;
}

/** listens on a port (0 picks a free one) and resolves once it accepts connections. */
export function listen(
  app: Pick<Hono, "fetch">,
  port: number,
  hostname?: string,
): Promise<RunningServer> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: app.fetch, port, ...(hostname ? { hostname } : {}) }, (info) => {
      resolve({
        port: (info as AddressInfo).port,
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
