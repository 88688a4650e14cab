import { LogoutOutlined } from "@ant-design/icons";
import { useCustom, useCustomMutation, type BaseRecord, type HttpError } from "@refinedev/core";
import { Flex, Skeleton, Tag, Tooltip, Typography, theme } from "antd";
import { useTranslation } from "react-i18next";
import type { SessionDto } from "../../shared/schemas/auth";
import type { Translate } from "../../providers/errors";
import { codedErrorNotification } from "../components/notifications";
import { Panel } from "../components/panel";
import { QueryError } from "../components/query-error";
import { formatDateTime, formatTimeAgo } from "../format";
import { ConfirmButton } from "./confirm-button";
import { deviceName } from "./user-agent";

export const SESSIONS_PATH = "/api/account/sessions";
export const END_OTHER_SESSIONS_PATH = "/api/account/sessions/end-others";

/** A session's device for people ("Chrome on Linux"), in the reader's language. */
const deviceOf = (session: SessionDto, t: Translate) =>
  deviceName(session.device, {
    browserOn: (browser, os) => t("sessions.browserOn", { browser, os }),
    unknown: t("sessions.unknownDevice"),
  });

/**
 * Where the administrator is signed in: every open session, this one tagged, each other one
 * ended on its own or all at once. A session ended answers 401 at its next request.
 */
export function SessionsCard() {
  const { t } = useTranslation("security");
  const { query, result } = useCustom<{ data: SessionDto[] }>({
    url: SESSIONS_PATH,
    method: "get",
    errorNotification: false,
  });
  const endOthers = useCustomMutation<{ ended: number }, HttpError, undefined>();
  const refresh = () => void query.refetch();
  const sessions = result.data?.data;

  const body = () => {
    if (query.isError) {
      return <QueryError error={query.error} onRetry={refresh} title={t("sessions.loadFailed")} />;
    }
    if (!sessions) return <Skeleton active paragraph={{ rows: 3 }} />;
    const others = sessions.some((session) => !session.current);
    return (
      <Flex vertical gap={12}>
        <Typography.Text type="secondary">{t("sessions.intro")}</Typography.Text>
        <ul
          aria-label={t("sessions.listLabel")}
          style={{ listStyle: "none", margin: 0, padding: 0 }}
        >
          {sessions.map((session) => (
            <SessionItem key={session.id} session={session} onEnded={refresh} />
          ))}
        </ul>
        {others ? (
          <div>
            <ConfirmButton
              danger
              icon={<LogoutOutlined aria-hidden />}
              title={t("sessions.endOthersTitle")}
              description={t("sessions.endOthersBody")}
              okText={t("sessions.endOthers")}
              loading={endOthers.mutation.isPending}
              onConfirm={() =>
                endOthers.mutate(
                  {
                    url: END_OTHER_SESSIONS_PATH,
                    method: "post",
                    values: undefined,
                    successNotification: (answer) => ({
                      type: "success",
                      message: t("sessions.endedOthers", { count: answer?.data.ended ?? 0 }),
                    }),
                    errorNotification: codedErrorNotification(t, t("sessions.endOthersFailed")),
                  },
                  { onSettled: refresh },
                )
              }
            >
              {t("sessions.endOthers")}
            </ConfirmButton>
          </div>
        ) : (
          <Typography.Text>{t("sessions.onlyThis")}</Typography.Text>
        )}
      </Flex>
    );
  };

  return <Panel title={t("sessions.title")}>{body()}</Panel>;
}

/** A moment as "5 minutes ago (28 Nov 2026 10:00)", the exact one readable by machines too. */
function Moment({ iso, ago = false }: { iso: string; ago?: boolean }) {
  const exact = formatDateTime(iso);
  return <time dateTime={iso}>{ago ? `${formatTimeAgo(iso)} (${exact})` : exact}</time>;
}

/**
 * One session: its device, address, when it was signed in and last active; with `onEnded`, an
 * End button on any but the current one (an administrator's own list).
 */
export function SessionItem({ session, onEnded }: { session: SessionDto; onEnded?: () => void }) {
  const { t } = useTranslation("security");
  const { token } = theme.useToken();
  const { mutate, mutation } = useCustomMutation<BaseRecord, HttpError, undefined>();
  const device = deviceOf(session, t);

  const end = () =>
    mutate(
      {
        url: `${SESSIONS_PATH}/${encodeURIComponent(session.id)}`,
        method: "delete",
        values: undefined,
        successNotification: { type: "success", message: t("sessions.ended") },
        errorNotification: codedErrorNotification(t, t("sessions.endFailed")),
      },
      { onSettled: onEnded },
    );

  return (
    <li style={{ padding: "12px 0", borderTop: `1px solid ${token.colorBorderSecondary}` }}>
      <Flex justify="space-between" align="flex-start" gap={12} wrap>
        <Flex vertical gap={4} style={{ flex: "1 1 260px", minWidth: 0 }}>
          <Flex gap={8} align="center" wrap>
            <Tooltip title={session.device || t("sessions.unknownDevice")}>
              <Typography.Text strong tabIndex={0} style={{ overflowWrap: "anywhere" }}>
                {device}
              </Typography.Text>
            </Tooltip>
            {session.current && <Tag color="blue">{t("sessions.thisDevice")}</Tag>}
          </Flex>
          <dl
            style={{
              display: "grid",
              gridTemplateColumns: "max-content minmax(0, 1fr)",
              gap: "2px 12px",
              margin: 0,
              color: token.colorTextSecondary,
            }}
          >
            <dt>{t("sessions.address")}</dt>
            <dd style={{ margin: 0, overflowWrap: "anywhere" }}>{session.address}</dd>
            <dt>{t("sessions.signedIn")}</dt>
            <dd style={{ margin: 0 }}>
              <Moment iso={session.createdAt} />
            </dd>
            <dt>{t("sessions.lastActive")}</dt>
            <dd style={{ margin: 0 }}>
              <Moment iso={session.lastSeenAt} ago />
            </dd>
          </dl>
        </Flex>
        {!session.current && onEnded && (
          <ConfirmButton
            danger
            icon={<LogoutOutlined aria-hidden />}
            label={t("sessions.endLabel", { device, when: formatTimeAgo(session.lastSeenAt) })}
            title={t("sessions.endTitle")}
            description={t("sessions.endBody", { device })}
            okText={t("sessions.end")}
            loading={mutation.isPending}
            onConfirm={end}
          >
            {t("sessions.end")}
          </ConfirmButton>
        )}
      </Flex>
    </li>
  );
}
