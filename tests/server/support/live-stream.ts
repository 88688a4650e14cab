/**
 * A reader of the live updates' stream (GET /v1/api/live/events) over real HTTP, as the console
 * reads it: fetch with the Authorization header, the body parsed as server-sent events.
 */
export interface SseEvent {
  event: string;
  id?: string;
  data: string;
}

export interface LiveStream {
  status: number;
  events: SseEvent[];
  /** The body of a refused stream. */
  body: string;
  /** Resolves with the first event (from the start) that `match` accepts; rejects after `ms`. */
  next(match: (event: SseEvent) => boolean, ms?: number): Promise<SseEvent>;
  /** Resolves once the server has ended the stream. */
  ended: Promise<void>;
  close(): void;
}

export async function openStream(
  base: string,
  token: string | undefined,
  headers: Record<string, string> = {},
): Promise<LiveStream> {
  const abort = new AbortController();
  const response = await fetch(`${base}/v1/api/live/events`, {
    headers: {
      accept: "text/event-stream",
      ...(token ? { authorization: token } : {}),
      ...headers,
    },
    signal: abort.signal,
  });
  const events: SseEvent[] = [];
  const waiters: Array<() => void> = [];
  const wake = () => waiters.splice(0).forEach((wakeUp) => wakeUp());
  let done = false;
  let resolveEnded!: () => void;
  const ended = new Promise<void>((resolve) => (resolveEnded = resolve));
  if (response.status !== 200) {
    const body = await response.text();
    resolveEnded();
    return {
      status: response.status,
      events,
      body,
      next: () => Promise.reject(new Error(`stream refused: ${response.status}`)),
      ended,
      close: () => abort.abort(),
    };
  }
  void (async () => {
    const decoder = new TextDecoder();
    let buffer = "";
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event: SseEvent = { event: "message", data: "" };
          let any = false;
          for (const line of block.split("\n")) {
            if (line.startsWith(":") || line === "") continue;
            const colon = line.indexOf(":");
            const field = colon < 0 ? line : line.slice(0, colon);
            const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
            if (field === "event") event.event = value;
            else if (field === "id") event.id = value;
            else if (field === "data") event.data += value;
            else continue;
            any = true;
          }
          if (any && (event.event !== "message" || event.data !== "")) events.push(event);
        }
        wake();
      }
    } catch {
      // aborted
    } finally {
      done = true;
      wake();
      resolveEnded();
    }
  })();
  const next = (match: (event: SseEvent) => boolean, ms = 5000) =>
    new Promise<SseEvent>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no matching event in ${ms} ms: ${JSON.stringify(events)}`)),
        ms,
      );
      const look = () => {
        const found = events.find(match);
        if (found) {
          clearTimeout(timer);
          resolve(found);
        } else if (done) {
          clearTimeout(timer);
          reject(new Error(`stream ended: ${JSON.stringify(events)}`));
        } else waiters.push(look);
      };
      look();
    });
  return { status: 200, events, body: "", next, ended, close: () => abort.abort() };
}

/** A `change` event's data. */
export function changeOf(event: SseEvent): {
  modules: string[];
  ids: string[] | null;
  kind: string;
} {
  return JSON.parse(event.data) as { modules: string[]; ids: string[] | null; kind: string };
}
