import { stringifyTableParams, type CrudFilter } from "@refinedev/core";
import { Col, Row } from "antd";
import { useTranslation } from "react-i18next";

import { useCurrentAdmin } from "../../providers/current-admin";
import { Panel } from "../components/panel";
import { useChangeRequestCounts } from "../kit/change-request-counts";
import { MODULES } from "../registry";
import { FigureTile } from "./figure-tile";

/** The change requests' list filtered as given (pending, and maybe the administrator's own). */
function requestsLink(filters: CrudFilter[]): string | undefined {
  const list = MODULES.find((module) => module.name === "change-requests")?.paths.list;
  if (!list) return undefined;
  const query = stringifyTableParams({
    filters,
    sorters: [],
    pagination: { currentPage: 1, pageSize: 10 },
  });
  return `${list}?${query}`;
}

/**
 * Four eyes on the dashboard: the changes waiting for this administrator's approval, and their
 * own changes waiting for someone else's, each leading to the list. Every administrator has it;
 * nothing shows until the counts have arrived.
 */
export function ApprovalsPanel() {
  const { t } = useTranslation("dashboard");
  const admin = useCurrentAdmin();
  const counts = useChangeRequestCounts(admin?.id);
  if (!admin || !counts) return null;
  const pending: CrudFilter = { field: "status", operator: "eq", value: "pending" };
  const section = t("changeRequests.title");
  return (
    <Panel title={section} style={{ marginBottom: 16 }}>
      <Row gutter={[16, 16]}>
        <Col xs={12} md={6}>
          <FigureTile
            section={section}
            label={t("changeRequests.toCheck")}
            value={counts.toCheck}
            to={requestsLink([pending])}
          />
        </Col>
        <Col xs={12} md={6}>
          <FigureTile
            section={section}
            label={t("changeRequests.mine")}
            value={counts.mine}
            to={requestsLink([pending, { field: "makerId", operator: "eq", value: admin.id }])}
          />
        </Col>
      </Row>
    </Panel>
  );
}
