import { EditOutlined } from "@ant-design/icons";
import { useCustom } from "@refinedev/core";
import { Button, Descriptions, Flex, List, Skeleton } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Panel } from "../../../app/components/panel";
import { QueryError } from "../../../app/components/query-error";
import { formatDateTime } from "../../../app/format";
import type { RiderDetails, UserDetail } from "../../../providers/api-types";
import { RiderVerificationTag } from "../tags";
import { AttendancePanel } from "./attendance-panel";
import { DocumentList, documentSizeKb } from "../../../app/components/document-list";
import { EditRiderDialog } from "./edit-dialog";
import { riderErrorText } from "./errors";
import { RIDER_DETAILS_URL, riderDetailsQuery } from "./requests";
import { UserActionButtons } from "../actions/actions-panel";
import { useRefreshUser } from "./use-refresh";

/**
 * The rider's part of the user detail page: details, the verification (the users declaration's
 * action), documents and attendance.
 */
export function RiderSection({ user }: { user: UserDetail }) {
  if (user.role !== "rider") return null;
  return (
    <Flex vertical gap={16}>
      <RiderDetailsPanel user={user} />
      <AttendancePanel user={user} />
    </Flex>
  );
}

/** Known vehicle types are translated; any other stored value is shown as it is. */
export function useVehicleLabel() {
  const { t } = useTranslation("riders");
  return (value: string) =>
    /^[\w-]+$/.test(value) ? t(`vehicleType.${value}`, { defaultValue: value }) : value;
}

function RiderDetailsPanel({ user }: { user: UserDetail }) {
  const { t } = useTranslation("riders");
  const vehicleLabel = useVehicleLabel();
  const refreshUser = useRefreshUser(user);
  const [editing, setEditing] = useState(false);
  const { query, result } = useCustom<RiderDetails>({
    url: RIDER_DETAILS_URL,
    method: "get",
    config: { query: riderDetailsQuery(user.accountNumber) },
    queryOptions: { queryKey: ["rider-details", user.accountNumber] },
    errorNotification: false,
  });
  const details = query.data ? result.data : undefined;
  const title = t("details.title");

  if (query.isLoading) {
    return (
      <Panel title={title}>
        <Skeleton active paragraph={{ rows: 5 }} />
      </Panel>
    );
  }
  if (query.isError || !details) {
    return (
      <Panel title={title}>
        <QueryError
          error={query.error}
          onRetry={() => void query.refetch()}
          title={t("details.loadFailed")}
        />
      </Panel>
    );
  }

  const { rider } = details;
  const refetch = () => void query.refetch();
  return (
    <Panel
      title={title}
      extra={
        <Flex gap={8} wrap>
          <UserActionButtons
            row={{ ...user, ...rider }}
            only={["riderVerification"]}
            // Decided, or refused because someone decided first: show the rider as it now is.
            onDecided={() => {
              refetch();
              refreshUser();
            }}
          />
          <Button icon={<EditOutlined aria-hidden />} onClick={() => setEditing(true)}>
            {t("edit.button")}
          </Button>
        </Flex>
      }
    >
      <Descriptions column={1} size="small">
        <Descriptions.Item label={t("details.vehicleType")}>
          {vehicleLabel(rider.vehicleType)}
        </Descriptions.Item>
        <Descriptions.Item label={t("details.plate")}>{rider.plate}</Descriptions.Item>
        <Descriptions.Item label={t("details.licenceNumber")}>
          {rider.licenceNumber}
        </Descriptions.Item>
        <Descriptions.Item label={t("details.status")}>
          <RiderVerificationTag status={rider.verificationStatus} />
        </Descriptions.Item>
        <Descriptions.Item label={t("details.remarks")}>
          {rider.verificationRemarks ?? t("details.noRemarks")}
        </Descriptions.Item>
      </Descriptions>
      <RiderDocumentList documents={rider.documents} />
      {editing && (
        <EditRiderDialog
          user={user}
          rider={rider}
          onClose={() => setEditing(false)}
          onDone={refetch}
        />
      )}
    </Panel>
  );
}

function RiderDocumentList({ documents }: { documents: RiderDetails["rider"]["documents"] }) {
  const { t } = useTranslation("riders");
  return (
    <section aria-label={t("documents.title")}>
      <h3 style={{ fontSize: 14, margin: "16px 0 8px" }}>{t("documents.title")}</h3>
      <DocumentList
        documents={documents}
        namespace="riders"
        errorText={(error) => riderErrorText(error, t)}
        renderMeta={(document) => (
          <List.Item.Meta
            title={document.name}
            description={t("documents.meta", {
              size: documentSizeKb(document.size),
              date: formatDateTime(document.uploadedAt),
            })}
          />
        )}
      />
    </section>
  );
}
