/**
 * Issue 35, item 2: the console's live provider (src/providers/live.ts) against the events
 * endpoint as msw serves it: it parses the stream, sends the session's Authorization header (never
 * the token in the URL), resubscribes with Last-Event-ID after a drop, opens its first stream from
 * the earliest answer read before it (Live-Event-Id), leaves out the console's own
 * changes; the list's notice counts the records changed and its refresh reads the list again; a
 * change of only the rows the page shows updates them in place.
 */
import { Refine } from "@refinedev/core";
import { act, render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { http as mswHttp, HttpResponse } from "msw";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";

import { LiveNotice } from "../../src/app/kit/live-notice";
import { dataProvider } from "../../src/providers/data";
import { http } from "../../src/providers/http";
import {
  createLiveProvider,
  LiveConnection,
  parseSse,
  SINCE_MS,
  type LiveChange,
} from "../../src/providers/live";
import { setToken } from "../../src/providers/session";
import { initPageTexts } from "./support/i18n";
import { API, useApiServer } from "./support/msw";

const { server, requests } = useApiServer();
const connections: LiveConnection[] = [];

beforeAll(async () => {
  await initPageTexts(["kit"]);
});

afterEach(() => {
  for (const connection of connections.splice(0)) connection.stop();
});

/** A stream msw serves: `send` writes to it, `end` closes it (a dropped connection). */
function controlledStream() {
  const encoder = new TextEncoder();
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
    },
  });
  return {
    response: () => new HttpResponse(body, { headers: { "Content-Type": "text/event-stream" } }),
    send: (text: string) => controller.enqueue(encoder.encode(text)),
    end: () => controller.close(),
  };
}

const change = (id: number, data: LiveChange) =>
  `id: ${id}\nevent: change\ndata: ${JSON.stringify(data)}\n\n`;

function connection() {
  const made = new LiveConnection({ retryMs: 10 });
  connections.push(made);
  return made;
}

describe("parseSse", () => {
  it("reads events split anywhere, comments, CRLF, retry, and keeps an unfinished one", () => {
    const { blocks, rest } = parseSse(
      ': heartbeat\r\n\r\nretry: 1000\nevent: reconnect\ndata: {}\n\nid: 7\nevent: change\ndata: {"a"',
    );
    expect(blocks).toEqual([{ event: "reconnect", data: "{}", retry: 1000 }]);
    expect(rest).toBe('id: 7\nevent: change\ndata: {"a"');
  });
});

describe("the live provider", () => {
  it("parses the stream into Refine's events, with the session's header", async () => {
    setToken("the-token");
    const stream = controlledStream();
    server.use(mswHttp.get(`${API}/api/live/events`, () => stream.response()));
    const provider = createLiveProvider(connection());
    const seen: unknown[] = [];
    provider.subscribe({
      channel: "resources/businesses",
      types: ["*"],
      callback: (event) => seen.push({ type: event.type, ids: event.payload.ids }),
    });
    await waitFor(() => expect(requests).toHaveLength(1));
    stream.send(change(3, { modules: ["businesses"], ids: ["9"], kind: "changed" }));
    stream.send(change(4, { modules: ["users"], ids: ["1"], kind: "created" }));
    stream.send(
      change(5, { modules: ["businesses", "business-approval"], ids: null, kind: "created" }),
    );
    await waitFor(() => expect(seen).toHaveLength(2));
    expect(seen).toEqual([
      { type: "updated", ids: ["9"] },
      { type: "created", ids: undefined },
    ]);
    const request = requests[0]!;
    expect(request.headers.get("authorization")).toBe("the-token");
    expect(request.url).toBe(`${API}/api/live/events`);
    expect(request.headers.get("last-event-id")).toBeNull();
  });

  it("resubscribes with Last-Event-ID after a drop, and gets what followed", async () => {
    setToken("the-token");
    const first = controlledStream();
    const second = controlledStream();
    let calls = 0;
    server.use(
      mswHttp.get(`${API}/api/live/events`, () => {
        calls += 1;
        return calls === 1 ? first.response() : second.response();
      }),
    );
    const provider = createLiveProvider(connection());
    const ids: unknown[] = [];
    provider.subscribe({
      channel: "resources/users",
      types: ["*"],
      callback: (event) => ids.push(event.payload.ids?.[0]),
    });
    await waitFor(() => expect(calls).toBe(1));
    first.send(change(41, { modules: ["users"], ids: ["1"], kind: "changed" }));
    await waitFor(() => expect(ids).toEqual(["1"]));
    first.end();
    await waitFor(() => expect(calls).toBe(2));
    expect(requests[1]!.headers.get("last-event-id")).toBe("41");
    second.send(change(42, { modules: ["users"], ids: ["2"], kind: "changed" }));
    await waitFor(() => expect(ids).toEqual(["1", "2"]));
  });

  it("opens its first stream from the earliest answer read before it (Live-Event-Id)", async () => {
    setToken("the-token");
    const stream = controlledStream();
    server.use(
      mswHttp.get(`${API}/api/businesses/:id`, ({ params }) =>
        HttpResponse.json(
          { id: Number(params.id) },
          { headers: { "Live-Event-Id": params.id === "7" ? "40" : "45" } },
        ),
      ),
      mswHttp.get(`${API}/api/live/events`, () => stream.response()),
    );
    const live = connection();
    live.enable();
    // A form read the record (no stream: nothing listened), then the record's page read it again.
    await http.get("/api/businesses/7");
    await http.get("/api/businesses/8");
    const told = vi.fn();
    live.listen({ onChange: told });
    await waitFor(() => expect(requests.at(-1)!.url).toBe(`${API}/api/live/events`));
    expect(requests.at(-1)!.headers.get("last-event-id")).toBe("40");
    // What changed in between is replayed by the server, and told.
    stream.send(change(43, { modules: ["businesses"], ids: ["7"], kind: "changed" }));
    await waitFor(() => expect(told).toHaveBeenCalledTimes(1));
  });

  it("does not resume from an answer older than the server remembers (a fresh start)", async () => {
    setToken("the-token");
    const stream = controlledStream();
    server.use(mswHttp.get(`${API}/api/live/events`, () => stream.response()));
    const live = connection();
    const now = Date.now();
    live.noteAnswer(new Headers({ "Live-Event-Id": "12" }));
    live.noteAnswer(new Headers({ "Live-Event-Id": "not-a-number" }));
    const clock = vi.spyOn(Date, "now").mockReturnValue(now + SINCE_MS + 1);
    try {
      live.listen({});
      await waitFor(() => expect(requests).toHaveLength(1));
      expect(requests[0]!.headers.get("last-event-id")).toBeNull();
    } finally {
      clock.mockRestore();
    }
  });

  it("stops on a 401 and on revoked: the session is over", async () => {
    setToken("ended");
    let calls = 0;
    server.use(
      mswHttp.get(`${API}/api/live/events`, () => {
        calls += 1;
        return HttpResponse.json({ message: "Invalid credential key" }, { status: 401 });
      }),
    );
    const live = connection();
    live.listen({});
    await waitFor(() => expect(calls).toBe(1));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(calls).toBe(1);
  });

  it("leaves out the console's own change (Refine's publish) and filters a record's page", async () => {
    setToken("the-token");
    const stream = controlledStream();
    server.use(mswHttp.get(`${API}/api/live/events`, () => stream.response()));
    const provider = createLiveProvider(connection());
    const list = vi.fn();
    const one = vi.fn();
    provider.subscribe({ channel: "resources/businesses", types: ["*"], callback: list });
    provider.subscribe({
      channel: "resources/businesses",
      types: ["*"],
      callback: one,
      params: { id: 8 },
    });
    provider.publish!({
      channel: "resources/businesses",
      type: "updated",
      payload: { ids: [7] },
      date: new Date(),
    });
    await waitFor(() => expect(requests).toHaveLength(1));
    stream.send(change(1, { modules: ["businesses"], ids: ["7"], kind: "changed" }));
    stream.send(change(2, { modules: ["businesses"], ids: ["8"], kind: "changed" }));
    stream.send(change(3, { modules: ["businesses"], ids: ["9"], kind: "changed" }));
    await waitFor(() => expect(list).toHaveBeenCalledTimes(2));
    expect(one).toHaveBeenCalledTimes(1);
    expect(one.mock.calls[0]![0].payload.ids).toEqual(["8"]);
  });
});

describe("the console's own changes", () => {
  it("are not news: a running action's ids, from before it is sent", async () => {
    setToken("the-token");
    const stream = controlledStream();
    server.use(mswHttp.get(`${API}/api/live/events`, () => stream.response()));
    const live = connection();
    const seen = vi.fn();
    live.listen({ onChange: seen });
    await waitFor(() => expect(requests).toHaveLength(1));
    live.markOwnMutation({ url: "/api/users/5/vip", method: "patch", values: {} });
    stream.send(change(1, { modules: ["users"], ids: ["5"], kind: "changed" }));
    stream.send(change(2, { modules: ["users"], ids: ["6"], kind: "changed" }));
    await waitFor(() => expect(seen).toHaveBeenCalledTimes(1));
    expect(seen.mock.calls[0]![0].ids).toEqual(["6"]);
  });
});

describe("the list's notice", () => {
  /** The businesses list's notice over a stream msw serves, the page showing `shown`. */
  async function renderNotice(shown?: number[]) {
    setToken("the-token");
    const stream = controlledStream();
    server.use(mswHttp.get(`${API}/api/live/events`, () => stream.response()));
    const live = connection();
    const refresh = vi.fn();
    render(
      <Refine
        dataProvider={dataProvider}
        liveProvider={createLiveProvider(live)}
        options={{ disableTelemetry: true }}
      >
        <LiveNotice resource="businesses" onRefresh={refresh} shown={shown} />
      </Refine>,
    );
    await waitFor(() => expect(requests).toHaveLength(1));
    return { stream, refresh };
  }

  it("counts the records changed by others and refreshes without leaving the page", async () => {
    const { stream, refresh } = await renderNotice();
    expect(screen.queryByRole("status")).toBeNull();
    act(() => stream.send(change(1, { modules: ["businesses"], ids: ["5"], kind: "changed" })));
    expect(await screen.findByText("1 new or changed: refresh")).toBeTruthy();
    act(() => {
      stream.send(change(2, { modules: ["businesses"], ids: ["5"], kind: "changed" }));
      stream.send(change(3, { modules: ["businesses"], ids: ["6"], kind: "created" }));
      stream.send(change(4, { modules: ["users"], ids: ["6"], kind: "created" }));
    });
    expect(await screen.findByText("2 new or changed: refresh")).toBeTruthy();
    await userEvent.click(screen.getByRole("button", { name: /Refresh/ }));
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole("status")).toBeNull();
  });

  it("updates in place a change of rows the page shows, once for a burst; anything else waits for the notice", async () => {
    const { stream, refresh } = await renderNotice([5, 6]);
    act(() => {
      stream.send(change(1, { modules: ["businesses"], ids: ["5"], kind: "changed" }));
      stream.send(change(2, { modules: ["businesses"], ids: ["5", "6"], kind: "changed" }));
    });
    // Read again by itself, once for both; no notice.
    await waitFor(() => expect(refresh).toHaveBeenCalledTimes(1));
    expect(screen.queryByRole("status")).toBeNull();
    // A record this page does not show, or a new one: the notice, and no refresh of its own.
    act(() => stream.send(change(3, { modules: ["businesses"], ids: ["7"], kind: "changed" })));
    expect(await screen.findByText("1 new or changed: refresh")).toBeTruthy();
    act(() => stream.send(change(4, { modules: ["businesses"], ids: ["5"], kind: "changed" })));
    expect(await screen.findByText("2 new or changed: refresh")).toBeTruthy();
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    expect(refresh).toHaveBeenCalledTimes(1);
  });
});
