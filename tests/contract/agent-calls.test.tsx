/**
 * The top-up agent calls of the user detail page as they cross the wire (msw): type and
 * commission, the commission checked in the browser with the shared parser before sending.
 */
import { http as mswHttp, HttpResponse } from "msw";
import { beforeAll, describe, expect, it } from "vitest";

import { dataProvider } from "../../src/providers/data";
import {
  AGENT_COMMISSION_URL,
  AGENT_TYPE_URL,
  agentCommissionBody,
  agentTypeBody,
} from "../../src/resources/users/agent/requests";
import { riderErrorText } from "../../src/resources/users/rider/errors";
import { initErrorTexts, t } from "./support/i18n";
import { API, useApiServer } from "./support/msw";

const { server, requests } = useApiServer();

beforeAll(() => initErrorTexts("en-US"));

const last = () => requests.at(-1)!;

describe("agent type", () => {
  it("posts the account number and the type to change-agent-type", async () => {
    server.use(mswHttp.post(`${API}${AGENT_TYPE_URL}`, () => HttpResponse.json({})));
    await dataProvider.custom!({
      url: AGENT_TYPE_URL,
      method: "post",
      payload: agentTypeBody("A-0001", "merchant"),
    });
    expect(new URL(last().url).pathname).toBe("/v1/user-mgmt/agent/change-agent-type");
    expect(await last().json()).toEqual({ account_number: "A-0001", agent_type: "merchant" });
  });
});

describe("agent commission", () => {
  it("posts the percentage as written to change-agent-commission", async () => {
    server.use(mswHttp.post(`${API}${AGENT_COMMISSION_URL}`, () => HttpResponse.json({})));
    await dataProvider.custom!({
      url: AGENT_COMMISSION_URL,
      method: "post",
      payload: agentCommissionBody("A-0001", " 12.5 "),
    });
    expect(new URL(last().url).pathname).toBe("/v1/user-mgmt/agent/change-agent-commission");
    expect(await last().json()).toEqual({ account_number: "A-0001", commission_rate: "12.5" });
  });

  it.each(["101", "-1", "1.234", "", "abc", "100.01"])("refuses %j before any request", (value) => {
    expect(agentCommissionBody("A-1", value)).toBeUndefined();
    expect(requests).toHaveLength(0);
  });

  it.each(["0", "100", "12.5", "12.50", "0.29"])("accepts %j", (value) => {
    expect(agentCommissionBody("A-1", value)).toEqual({
      account_number: "A-1",
      commission_rate: value,
    });
  });

  it("shows the server's refusal translated", async () => {
    server.use(
      mswHttp.post(`${API}${AGENT_COMMISSION_URL}`, () =>
        HttpResponse.json(
          { code: "VALIDATION_ERROR", message: "Invalid commission_rate: Must be a percentage" },
          { status: 400 },
        ),
      ),
    );
    const error = await dataProvider.custom!({
      url: AGENT_COMMISSION_URL,
      method: "post",
      payload: { account_number: "A-1", commission_rate: "101" },
    }).catch((failure: unknown) => failure);
    expect(riderErrorText(error, t)).toBe(t("errors:codes.VALIDATION_ERROR"));
    expect(riderErrorText(error, t)).not.toBe("");
  });
});
