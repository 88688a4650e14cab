import { ArrowLeftOutlined } from "@ant-design/icons";
import { useOne } from "@refinedev/core";
import { Button, Col, Empty, Flex, Row, Skeleton } from "antd";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate, useParams } from "react-router";
import { PageHeader } from "../../app/components/page-header";
import { Panel } from "../../app/components/panel";
import { QueryError } from "../../app/components/query-error";
import { RelatedList } from "../../app/kit/related-list";
import type { UserDetail } from "../../providers/api-types";
import { isApiError } from "../../providers/errors";
import { users } from "../../shared/modules/users";
import { walletStatement } from "../../shared/modules/wallet-statement";
import { ActionsPanel } from "./actions/actions-panel";
import { HistoryPanel } from "./actions/history-panel";
import { AgentSection } from "./agent";
import { USER_PATHS } from "./paths";
import { ProfilePanel } from "./profile-panel";
import { RiderSection } from "./rider";
import { PrintStatement } from "./statement-print";
import { ApprovalStatusTag, BannedTag, RoleTag, VipTag } from "./tags";
import { WalletPanel } from "./wallet-panel";
import { RecordLive } from "../../app/kit/record-live";

const isNotFound = (error: unknown) => isApiError(error) && error.statusCode === 404;
/** Ids are positive integers: anything else names no user, and asking the server is pointless. */
const isUserId = (id: string) => /^[1-9]\d{0,9}$/.test(id);

export default function UserShow() {
  const { t } = useTranslation("users");
  const navigate = useNavigate();
  const { id = "" } = useParams();
  const { query, result: user } = useOne<UserDetail>({
    resource: "users",
    id,
    errorNotification: false,
    queryOptions: { enabled: isUserId(id) },
  });
  const toList = () => navigate(USER_PATHS.list);

  const back = (
    <Button
      type="text"
      icon={<ArrowLeftOutlined aria-hidden />}
      aria-label={t("show.back")}
      onClick={toList}
    />
  );
  const frame = (body: ReactNode) => (
    <>
      <PageHeader title={t("show.title")} back={back} />
      {body}
    </>
  );

  if (query.isLoading) {
    return frame(
      <Panel>
        <Skeleton active paragraph={{ rows: 8 }} />
      </Panel>,
    );
  }
  if (!isUserId(id) || isNotFound(query.error)) {
    return frame(
      <Panel>
        <Empty description={t("show.notFound", { id })}>
          <Button type="primary" onClick={toList}>
            {t("show.backToList")}
          </Button>
        </Empty>
      </Panel>,
    );
  }
  if (query.isError || !user) {
    return frame(
      <QueryError
        error={query.error}
        onRetry={() => void query.refetch()}
        title={t("show.loadFailed")}
      />,
    );
  }

  return (
    <>
      <PageHeader
        title={user.name}
        back={back}
        extra={
          <Flex gap={6} wrap align="center">
            <RoleTag role={user.role} />
            <ApprovalStatusTag status={user.approvalStatus} />
            {user.isBanned && <BannedTag />}
            {user.isVip && <VipTag />}
          </Flex>
        }
      />
      <RecordLive key={id} resource="users" id={id} onRefresh={() => query.refetch()} />
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={14}>
          <ProfilePanel user={user} />
        </Col>
        <Col xs={24} xl={10}>
          <Flex vertical gap={16}>
            <WalletPanel wallet={user.wallet} />
            <RiderSection user={user} />
            <AgentSection user={user} />
            <ActionsPanel user={user} onChanged={() => void query.refetch()} />
          </Flex>
        </Col>
        <Col span={24}>
          <RelatedList
            module={users}
            name="statement"
            list={walletStatement}
            id={user.id}
            extra={<PrintStatement userId={user.id} accountNumber={user.accountNumber} />}
          />
        </Col>
        <Col span={24}>
          <HistoryPanel userId={user.id} version={query.dataUpdatedAt} />
        </Col>
      </Row>
    </>
  );
}
