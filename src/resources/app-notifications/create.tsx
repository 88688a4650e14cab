import { useCustom } from "@refinedev/core";
import { Alert, Skeleton, Typography } from "antd";
import { useTranslation } from "react-i18next";

import { formatDateTime, formatTotal } from "../../app/format";
import { ModuleCreate } from "../../app/kit/generated-create";
import { valueLabel } from "../../app/kit/texts";
import { appNotifications, type AppNotificationBody } from "../../shared/modules/app-notifications";

/**
 * A new app notification: with no send time the button says "Send now", with one "Schedule";
 * either way the staff member confirms, told how many users it reaches and which roles, before
 * anything is sent (a notification without a time goes to every one of them at once).
 */
export default function AppNotificationCreate() {
  const { t } = useTranslation("appNotification");
  return (
    <ModuleCreate
      module={appNotifications}
      submitText={(values) => t(values.sendAt ? "create.submit" : "create.sendNow")}
      review={(body) => ({
        content: <Recipients notification={body as AppNotificationBody} />,
        okText: t(body.sendAt ? "create.submit" : "create.sendNow"),
      })}
    />
  );
}

/** Who the notification reaches: the roles, and how many active users they hold now. */
function Recipients({ notification }: { notification: AppNotificationBody }) {
  const { t } = useTranslation(["appNotification", "kit"]);
  const { query, result } = useCustom<{ count: number }>({
    url: "/api/app-notifications/audience-count",
    method: "post",
    config: { payload: { audience: notification.audience } },
    errorNotification: false,
  });
  const roles = notification.audience
    .map((role) => valueLabel(t, appNotifications, "audience", role))
    .join(", ");
  const words = { title: notification.titleEn, roles };
  return (
    <>
      <Typography.Paragraph>
        {notification.sendAt
          ? t("create.reviewLater", { ...words, time: formatDateTime(notification.sendAt) })
          : t("create.reviewNow", words)}
      </Typography.Paragraph>
      {query.isLoading ? (
        <Skeleton active paragraph={false} />
      ) : query.isError ? (
        <Alert type="warning" showIcon message={t("create.countFailed")} />
      ) : (
        <Typography.Paragraph strong role="status">
          {t(notification.sendAt ? "create.countToday" : "create.count", {
            count: result.data.count,
            users: formatTotal(result.data.count),
          })}
        </Typography.Paragraph>
      )}
    </>
  );
}
