import { useCustom } from "@refinedev/core";
import { Flex, Skeleton, Tag, Typography } from "antd";
import { useTranslation } from "react-i18next";

import { Panel } from "../../app/components/panel";
import { QueryError } from "../../app/components/query-error";
import { SessionItem } from "../../app/setting/sessions-card";
import type { AdminDto } from "../../providers/api-types";
import type { SessionDto } from "../../shared/schemas/auth";

/**
 * How an administrator signs in: whether they have a second factor, and the sessions open on
 * their account now (a super administrator ends them all from the page's header).
 */
export function SignInPanel({ admin, version }: { admin: AdminDto; version: number }) {
  const { t } = useTranslation(["admin", "security"]);
  const { query, result } = useCustom<{ data: SessionDto[] }>({
    url: `/api/administrators/${admin.id}/sessions`,
    method: "get",
    errorNotification: false,
    queryOptions: { queryKey: ["administrator-sessions", admin.id, version] },
  });
  const sessions = result.data?.data;
  return (
    <Panel title={t("show.signIn")}>
      <Flex vertical gap={8}>
        <Typography.Text>
          {t("fields.hasSecondFactor")}:{" "}
          {admin.hasSecondFactor ? (
            <Tag color="green">{t("show.secondFactorOn")}</Tag>
          ) : (
            <Tag>{t("show.secondFactorOff")}</Tag>
          )}
        </Typography.Text>
        {query.isError ? (
          <QueryError
            error={query.error}
            onRetry={() => void query.refetch()}
            title={t("security:sessions.loadFailed")}
          />
        ) : !sessions ? (
          <Skeleton active paragraph={{ rows: 2 }} />
        ) : sessions.length === 0 ? (
          <Typography.Text type="secondary">{t("show.noSessions")}</Typography.Text>
        ) : (
          <ul aria-label={t("show.sessions")} style={{ listStyle: "none", margin: 0, padding: 0 }}>
            {sessions.map((session) => (
              <SessionItem key={session.id} session={session} />
            ))}
          </ul>
        )}
      </Flex>
    </Panel>
  );
}
