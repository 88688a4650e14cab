import { createServer, type Server } from "node:net";

/** The ports this suite's stand-in servers may use (the machine's other services keep theirs). */
export const TEST_PORTS = { first: 8801, last: 8850 } as const;

function listenOn(server: Server, port: number): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      server.off("listening", onListening);
      if (error.code === "EADDRINUSE") resolve(false);
      else reject(error);
    };
    const onListening = () => {
      server.off("error", onError);
      resolve(true);
    };
    server.once("error", onError);
    server.once("listening", onListening);
    server.listen(port, "127.0.0.1");
  });
}

/** Listens on the first free loopback port of TEST_PORTS and returns it. */
export async function listenInTestRange(server: Server): Promise<number> {
  for (let port = TEST_PORTS.first; port <= TEST_PORTS.last; port += 1) {
    if (await listenOn(server, port)) return port;
  }
  throw new Error(`No free port between ${TEST_PORTS.first} and ${TEST_PORTS.last}`);
}

export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve, reject) =>
    server.close((error) => (error ? reject(error) : resolve())),
  );
}

/** A loopback port in the test range with nothing listening on it (a mail server that is down). */
export async function unusedPort(): Promise<number> {
  const server = createServer();
  const port = await listenInTestRange(server);
  await closeServer(server);
  return port;
}
