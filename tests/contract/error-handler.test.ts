import { http as mswHttp, HttpResponse } from "msw";
import { beforeAll, describe, expect, it, vi } from "vitest";

import { handleApiError, type ErrorHandlerDeps } from "../../src/providers/error-handler";
import { http } from "../../src/providers/http";
import { getToken, setToken } from "../../src/providers/session";
import { aToken } from "./support/fixtures";
import { t, initErrorTexts } from "./support/i18n";
import { API, useApiServer } from "./support/msw";

const { server } = useApiServer();

beforeAll(() => initErrorTexts("en-US"));

/**
 * Runs one real failing call (a change, so the list-failure row stays out of it) through the
 * central handler with recording dependencies.
 */
async function handle(answer: () => Response) {
  server.use(mswHttp.post(`${API}/api/probe`, answer));
  const error = await http.post("/api/probe").catch((e: unknown) => e);
  const notify = vi.fn<ErrorHandlerDeps["notify"]>();
  const showBannedDialog = vi.fn<ErrorHandlerDeps["showBannedDialog"]>();
  const reload = vi.fn();
  const schedule = vi.fn<ErrorHandlerDeps["schedule"]>();
  const described = handleApiError(error, { t, notify, showBannedDialog, reload, schedule });
  return { described, notify, showBannedDialog, reload, schedule };
}

const message =
  (text: string, status = 401) =>
  () =>
    HttpResponse.json({ message: text }, { status });

describe("central handler: messages that end the session", () => {
  it.each([
    ["JWT expired", "Login Expired, Please Relogin", undefined],
    ["User not authorise", "Login Expired, Please Relogin", undefined],
    ["Missing credential key", "Login Expired, Please re-login", undefined],
    ["User not found", "User not exits, Please re-login", undefined],
    ["Invalid credential key", "Invalid credential, Please re-login", undefined],
    ["User banned from login", "User is banned from login", undefined],
    ["Unauthorized", "User not authorized", "User not authorized, Please re-login"],
  ])(
    "%s: shows the text, clears the token and reloads after 500 ms",
    async (text, shown, detail) => {
      setToken(aToken());
      const { notify, schedule, reload, described } = await handle(message(text));
      expect(described.effect).toBe("clearTokenAndReload");
      expect(notify).toHaveBeenCalledTimes(1);
      expect(notify.mock.calls[0]![0]).toMatchObject({ type: "error", message: shown });
      expect(notify.mock.calls[0]![0].description).toBe(detail);
      expect(getToken()).toBeUndefined();
      expect(document.cookie).not.toMatch(/jwt=/);
      expect(localStorage.getItem("jwt")).toBeNull();
      expect(schedule).toHaveBeenCalledWith(reload, 500);
    },
  );

  it("treats the bare text body Unauthorized the same way", async () => {
    setToken(aToken());
    const { notify, schedule, reload } = await handle(() =>
      HttpResponse.text("Unauthorized", { status: 401 }),
    );
    expect(notify).toHaveBeenCalledWith(
      expect.objectContaining({ message: "User not authorized" }),
    );
    expect(getToken()).toBeUndefined();
    expect(schedule).toHaveBeenCalledWith(reload, 500);
  });
});

describe("central handler: messages that leave the session alone", () => {
  it("shows a permission refusal with its target and keeps the session", async () => {
    const token = aToken();
    setToken(token);
    const { notify, schedule, described } = await handle(
      message("You have no permission to access POST Administrator", 403),
    );
    expect(described.effect).toBe("toast");
    expect(notify).toHaveBeenCalledWith(
      expect.objectContaining({ message: "You have no permission to access POST Administrator" }),
    );
    expect(getToken()).toBe(token);
    expect(schedule).not.toHaveBeenCalled();
  });

  it("stays silent about GET Single User", async () => {
    const { notify, described } = await handle(
      message("You have no permission to access GET Single User", 403),
    );
    expect(described.effect).toBe("silent");
    expect(notify).not.toHaveBeenCalled();
  });

  it("shows Wrong password's data text", async () => {
    const { notify } = await handle(() =>
      HttpResponse.json(
        { message: "Wrong password", data: "电子邮件或密码不正确。" },
        { status: 401 },
      ),
    );
    expect(notify).toHaveBeenCalledWith(
      expect.objectContaining({ message: "电子邮件或密码不正确。" }),
    );
  });

  it("opens the banned dialog with the contact e-mail and clears the token", async () => {
    setToken(aToken());
    const { showBannedDialog, notify, schedule } = await handle(() =>
      HttpResponse.json(
        { message: "User is banned from login.", data: { email: "support@ucsi.example" } },
        { status: 403 },
      ),
    );
    expect(showBannedDialog).toHaveBeenCalledWith({
      title: "Account banned from login",
      content:
        "This account is prevented from login. Please contact admin at support@ucsi.example.",
      email: "support@ucsi.example",
    });
    expect(notify).not.toHaveBeenCalled();
    expect(getToken()).toBeUndefined();
    expect(schedule).not.toHaveBeenCalled();
  });

  it("tells a disabled administrator the account is disabled, not banned", async () => {
    setToken(aToken());
    const { showBannedDialog } = await handle(() =>
      HttpResponse.json(
        { message: "User is disabled.", data: { email: "support@ucsi.example" } },
        { status: 403 },
      ),
    );
    expect(showBannedDialog).toHaveBeenCalledWith({
      title: "Account disabled",
      content:
        "This account is disabled. Please contact admin at support@ucsi.example to have it enabled again.",
      email: "support@ucsi.example",
    });
    expect(getToken()).toBeUndefined();
  });

  it("toasts any other message as it is", async () => {
    const { notify } = await handle(message("Settlement already paid", 409));
    expect(notify).toHaveBeenCalledWith(
      expect.objectContaining({ message: "Settlement already paid" }),
    );
  });

  it("leaves a coded error to the form that caused it", async () => {
    const { notify, described } = await handle(() =>
      HttpResponse.json({ code: "EMAIL_TAKEN", message: "E-mail taken" }, { status: 409 }),
    );
    expect(described.effect).toBe("silent");
    expect(notify).not.toHaveBeenCalled();
  });

  it("says Fail to fetch data when there is no answer", async () => {
    const { notify } = await handle(() => HttpResponse.error());
    expect(notify).toHaveBeenCalledWith(
      expect.objectContaining({
        message: "Fail to fetch data",
        description: "Unexpected error occured when calling api. Please contact admin.",
      }),
    );
  });

  it("gives repeated failures one notice key, so the toast shows once", async () => {
    const first = await handle(() => HttpResponse.error());
    const second = await handle(() => HttpResponse.error());
    expect(first.notify.mock.calls[0]![0].key).toBe(second.notify.mock.calls[0]![0].key);
  });
});

describe("central handler: one failure, one effect", () => {
  it("acts once on a failure reported twice (two hooks watching one query)", async () => {
    setToken(aToken());
    server.use(
      mswHttp.post(`${API}/api/probe`, () =>
        HttpResponse.json({ message: "JWT expired" }, { status: 401 }),
      ),
    );
    const error = await http.post("/api/probe").catch((e: unknown) => e);
    const notify = vi.fn<ErrorHandlerDeps["notify"]>();
    const schedule = vi.fn<ErrorHandlerDeps["schedule"]>();
    handleApiError(error, { t, notify, schedule });
    handleApiError(error, { t, notify, schedule });
    expect(notify).toHaveBeenCalledTimes(1);
    expect(schedule).toHaveBeenCalledTimes(1);
  });
});
