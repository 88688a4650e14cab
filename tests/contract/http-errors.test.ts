import { delay, http as mswHttp, HttpResponse } from "msw";
import { beforeAll, describe, expect, it } from "vitest";

import { ApiError, translateApiError } from "../../src/providers/errors";
import { http } from "../../src/providers/http";
import { t, initErrorTexts } from "./support/i18n";
import { API, useApiServer } from "./support/msw";

const { server } = useApiServer();

beforeAll(() => initErrorTexts("en-US"));

/** Serves one answer at /api/probe and returns what the console's http client rejects with. */
async function failureFor(
  answer: () => Response | Promise<Response>,
  config: Parameters<typeof http.get>[1] = {},
) {
  server.use(mswHttp.get(`${API}/api/probe`, answer));
  const error: unknown = await http.get("/api/probe", config).then(
    () => {
      throw new Error("expected the call to fail");
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe("the data layer's response handling (docs/errors.md)", () => {
  it("keeps the code, message and data of an error body with a code", async () => {
    const error = await failureFor(() =>
      HttpResponse.json(
        { code: "EMAIL_TAKEN", message: "E-mail already in use", data: { email: "a@b.c" } },
        { status: 409 },
      ),
    );
    expect(error).toMatchObject({
      kind: "coded",
      statusCode: 409,
      code: "EMAIL_TAKEN",
      message: "E-mail already in use",
      data: { email: "a@b.c" },
    });
  });

  it("marks the fields a validation error names, for Refine forms", async () => {
    const error = await failureFor(() =>
      HttpResponse.json(
        {
          code: "VALIDATION_ERROR",
          message: "email: Invalid email",
          data: { issues: [{ path: "email", message: "Invalid email" }] },
        },
        { status: 400 },
      ),
    );
    expect(error.errors).toEqual({ email: ["Invalid email"] });
  });

  it("keeps the message of an error body without a code", async () => {
    const error = await failureFor(() =>
      HttpResponse.json({ message: "JWT expired" }, { status: 401 }),
    );
    expect(error).toMatchObject({ kind: "message", statusCode: 401, message: "JWT expired" });
  });

  it("recognises the bare text Unauthorized", async () => {
    const error = await failureFor(() => HttpResponse.text("Unauthorized", { status: 401 }));
    expect(error).toMatchObject({ kind: "unauthorized", statusCode: 401, message: "Unauthorized" });
  });

  it("carries any other text body as the message", async () => {
    const error = await failureFor(() =>
      HttpResponse.text("Service temporarily unavailable", { status: 503 }),
    );
    expect(error).toMatchObject({
      kind: "text",
      statusCode: 503,
      message: "Service temporarily unavailable",
    });
  });

  it("reads a status without a body as 404 Not found", async () => {
    const error = await failureFor(() => new HttpResponse(null, { status: 502 }));
    expect(error).toMatchObject({ kind: "status", statusCode: 502, message: "404 Not found" });
  });

  it("gives the generic text when the network is down", async () => {
    const error = await failureFor(() => HttpResponse.error());
    expect(error).toMatchObject({
      kind: "network",
      message: "Unexpected error occured when calling api. Please contact admin.",
    });
    expect(error.statusCode).toBeUndefined();
  });

  it("gives the generic text when the server does not answer in time", async () => {
    const error = await failureFor(
      async () => {
        await delay(500);
        return HttpResponse.json({});
      },
      { timeout: 20 },
    );
    expect(error).toMatchObject({
      kind: "network",
      message: "Unexpected error occured when calling api. Please contact admin.",
    });
  });

  it("never shows an HTML error page: a 500 page becomes the generic text", async () => {
    const error = await failureFor(
      () =>
        new HttpResponse(
          "<!doctype html><html><body><h1>500 Internal Server Error</h1></body></html>",
          {
            status: 500,
            headers: { "Content-Type": "text/html" },
          },
        ),
    );
    expect(error).toMatchObject({
      kind: "malformed",
      statusCode: 500,
      message: "Unexpected error occured when calling api. Please contact admin.",
    });
  });

  it("turns a truncated JSON body into the generic text, not a parse error", async () => {
    const error = await failureFor(
      () =>
        new HttpResponse('{"message": "Invalid cre', {
          status: 401,
          headers: { "Content-Type": "application/json" },
        }),
    );
    expect(error).toMatchObject({ kind: "malformed", statusCode: 401 });
  });

  it("rejects a successful answer that is an HTML page (a wrong API URL served the app)", async () => {
    const error = await failureFor(
      () =>
        new HttpResponse("<!doctype html><div id=root></div>", {
          status: 200,
          headers: { "Content-Type": "text/html" },
        }),
    );
    expect(error).toMatchObject({ kind: "malformed", statusCode: 200 });
  });
});

describe("translateApiError", () => {
  const coded = (code: string) =>
    new ApiError({ kind: "coded", statusCode: 400, code, message: `server text for ${code}` });

  it.each([
    [
      "VALIDATION_ERROR",
      "Some of the information is not valid. Please check the highlighted fields.",
    ],
    ["EMAIL_TAKEN", "This e-mail address is already in use."],
    [
      "LAST_ADMIN_HOLDER",
      "This change would leave no active administrator with the Admin permission.",
    ],
    ["RATE_LIMITED", "Too many attempts. Please wait a minute and try again."],
  ])("translates the code %s", (code, text) => {
    expect(translateApiError(coded(code), t)).toBe(text);
  });

  it("falls back to the server's message for a code it does not know", () => {
    expect(translateApiError(coded("SOMETHING_NEW"), t)).toBe("server text for SOMETHING_NEW");
  });

  it("translates catalogued messages and keeps the target of a permission refusal", async () => {
    const message = (text: string) =>
      new ApiError({ kind: "message", statusCode: 401, message: text });
    expect(translateApiError(message("JWT expired"), t)).toBe("Login Expired, Please Relogin");
    expect(translateApiError(message("User not found"), t)).toBe("User not exits, Please re-login");
    expect(
      translateApiError(message("You have no permission to access POST Administrator"), t),
    ).toBe("You have no permission to access POST Administrator");
    await initErrorTexts("cn-ZH");
    expect(
      translateApiError(message("You have no permission to access GET Administrators"), t),
    ).toBe("您没有权限访问 GET Administrators");
    expect(translateApiError(coded("NOT_FOUND"), t)).toBe("未找到该记录，它可能已被删除。");
    await initErrorTexts("en-US");
  });

  it("shows an uncatalogued server message as it is", () => {
    const error = new ApiError({ kind: "message", statusCode: 418, message: "Teapot is busy" });
    expect(translateApiError(error, t)).toBe("Teapot is busy");
  });

  it("turns a value that is not an error at all into the generic text", () => {
    expect(translateApiError(undefined, t)).toBe(
      "Unexpected error occured when calling api. Please contact admin.",
    );
  });
});
