import { ArrowLeftOutlined, EditOutlined } from "@ant-design/icons";
import { useGetIdentity, useOne } from "@refinedev/core";
import { Button, Col, Descriptions, Row, Skeleton, Space } from "antd";
import { useTranslation } from "react-i18next";
import { useNavigate, useParams } from "react-router";
import { PageHeader } from "../../app/components/page-header";
import { RecordActions } from "../../app/kit/decision";
import { RecordHistory } from "../../app/kit/history-panel";
import { Panel } from "../../app/components/panel";
import { QueryError } from "../../app/components/query-error";
import { formatDate, formatDateTime } from "../../app/format";
import { LANGUAGE_NAMES } from "../../app/layout/language-switcher";
import type { AdminDto } from "../../providers/api-types";
import { administrators } from "../../shared/modules/administrators";
import { mayManageAdministrator } from "../../shared/permissions";
import { ADMIN_PATHS, adminEditPath } from "./paths";
import { PermissionEditor } from "./permission-editor";
import { SignInPanel } from "./sign-in-panel";
import { AdminStatusTag, SuperAdminTag } from "./status-tag";
import { StatusToggle } from "./status-toggle";
import { RecordLive } from "../../app/kit/record-live";

export default function AdministratorShow() {
  const { t } = useTranslation("admin");
  const navigate = useNavigate();
  const { id = "" } = useParams();
  const { data: me } = useGetIdentity<AdminDto>();
  const { query, result: admin } = useOne<AdminDto>({
    resource: "administrators",
    id,
    errorNotification: false,
  });

  const back = (
    <Button
      type="text"
      icon={<ArrowLeftOutlined aria-hidden />}
      aria-label={t("show.back")}
      onClick={() => navigate(ADMIN_PATHS.list)}
    />
  );

  if (query.isLoading) {
    return (
      <>
        <PageHeader title={t("show.title")} back={back} />
        <Panel>
          <Skeleton active paragraph={{ rows: 6 }} />
        </Panel>
      </>
    );
  }
  if (query.isError || !admin) {
    return (
      <>
        <PageHeader title={t("show.title")} back={back} />
        <QueryError
          error={query.error}
          onRetry={() => void query.refetch()}
          title={t("show.loadFailed")}
        />
      </>
    );
  }

  // Convenience only: the server refuses what this hides (mayManageAdministrator there too).
  const manageable = me !== undefined && mayManageAdministrator(me, admin);

  return (
    <>
      <PageHeader
        title={admin.name}
        back={back}
        extra={
          <Space wrap>
            {manageable && (
              <Button
                icon={<EditOutlined aria-hidden />}
                onClick={() => navigate(adminEditPath(admin.id))}
              >
                {t("show.edit")}
              </Button>
            )}
            {manageable && admin.id !== me?.id && (
              <RecordActions
                module={administrators}
                row={admin}
                only={["passwordReset", "endSessions", "resetFactors"]}
              />
            )}
            {manageable && admin.id !== me?.id && <StatusToggle admin={admin} />}
          </Space>
        }
      />
      <RecordLive
        key={admin.id}
        resource="administrators"
        id={admin.id}
        onRefresh={() => query.refetch()}
      />
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={10}>
          <Panel title={t("show.profile")}>
            <Descriptions column={1} size="small">
              <Descriptions.Item label={t("fields.name")}>
                <Space size={6} wrap>
                  {admin.name}
                  {admin.isSuperAdmin && <SuperAdminTag />}
                </Space>
              </Descriptions.Item>
              <Descriptions.Item label={t("fields.email")}>{admin.email}</Descriptions.Item>
              <Descriptions.Item label={t("fields.status")}>
                <AdminStatusTag status={admin.status} />
              </Descriptions.Item>
              <Descriptions.Item label={t("fields.language")}>
                {admin.language ? LANGUAGE_NAMES[admin.language] : t("show.noLanguage")}
              </Descriptions.Item>
              <Descriptions.Item label={t("fields.lastLoginAt")}>
                {formatDateTime(admin.lastLoginAt, t("never"))}
              </Descriptions.Item>
              <Descriptions.Item label={t("fields.createdAt")}>
                {formatDate(admin.createdAt)}
              </Descriptions.Item>
              <Descriptions.Item label={t("fields.updatedAt")}>
                {formatDate(admin.updatedAt)}
              </Descriptions.Item>
            </Descriptions>
          </Panel>
        </Col>
        <Col xs={24} xl={14}>
          <PermissionEditor key={admin.id} admin={admin} editable={manageable} />
        </Col>
        <Col xs={24} xl={10}>
          <SignInPanel admin={admin} version={query.dataUpdatedAt} />
        </Col>
        <Col xs={24} xl={14}>
          {/* Every sign-in, failure, step-up and factor change is here: the login history. */}
          <RecordHistory
            url={`/api/administrators/${admin.id}/audit`}
            module={administrators}
            version={query.dataUpdatedAt}
          />
        </Col>
      </Row>
    </>
  );
}
