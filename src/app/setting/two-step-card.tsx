import {
  DeleteOutlined,
  KeyOutlined,
  ReloadOutlined,
  SafetyCertificateOutlined,
} from "@ant-design/icons";
import { useCustom, useCustomMutation, type BaseRecord, type HttpError } from "@refinedev/core";
import { Alert, Button, Flex, Skeleton, Typography, theme } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { FactorsDto, RecoveryCodes, TotpEnrolment } from "../../shared/schemas/auth";
import { codedErrorNotification } from "../components/notifications";
import { Panel } from "../components/panel";
import { QueryError } from "../components/query-error";
import { formatDate } from "../format";
import { ConfirmButton } from "./confirm-button";
import { PasskeysSection } from "./passkeys-section";
import { RecoveryCodes as RecoveryCodesView } from "./recovery-codes";
import { TotpEnrolmentForm } from "./totp-enrolment";

export const FACTORS_PATH = "/api/account/factors";
export const TOTP_PATH = "/api/account/factors/totp";
export const RECOVERY_CODES_PATH = "/api/account/factors/recovery-codes";

/** At or below this many recovery codes left, the card asks for new ones. */
export const FEW_RECOVERY_CODES = 3;

/** What the card shows: the state of the factors, an enrolment under way, or codes to save. */
type View =
  | { kind: "status" }
  | { kind: "enrol"; enrolment: TotpEnrolment }
  | { kind: "codes"; codes: string[]; enrolled?: true };

/**
 * The administrator's second factors: passkeys (passkeys-section.tsx), an authenticator app (set
 * up with a QR code and confirmed with a code) and the recovery codes that go with either, shown
 * once when made (with the first factor, or on asking for new ones). Changes need a recent proof:
 * the http layer asks for it and retries (STEP_UP_REQUIRED); what still fails is said here.
 */
export function TwoStepCard({
  onSetUp,
}: {
  /** Called once a first factor is set up and its recovery codes saved (the required enrolment). */
  onSetUp?: () => void;
} = {}) {
  const { t } = useTranslation("security");
  const { token } = theme.useToken();
  // The headings of the card's parts: passkeys, the app, the recovery codes.
  const subtitle = { fontSize: token.fontSizeLG, margin: 0 };
  const [view, setView] = useState<View>({ kind: "status" });
  const { query } = useCustom<FactorsDto>({
    url: FACTORS_PATH,
    method: "get",
    // The inline error state says what went wrong; no toast on top of it.
    errorNotification: false,
  });
  // Calls without a body send none.
  const start = useCustomMutation<TotpEnrolment, HttpError, undefined>();
  const renew = useCustomMutation<RecoveryCodes, HttpError, undefined>();
  const remove = useCustomMutation<BaseRecord, HttpError, undefined>();
  const refresh = () => void query.refetch();

  const setUp = () =>
    start.mutate(
      {
        url: TOTP_PATH,
        method: "post",
        values: undefined,
        successNotification: false,
        errorNotification: codedErrorNotification(t, t("twoStep.setUpFailed")),
      },
      {
        onSuccess: ({ data }) => setView({ kind: "enrol", enrolment: data }),
        // TOTP_ENROLLED: another tab finished first; show what is true now.
        onError: refresh,
      },
    );

  const newCodes = () =>
    renew.mutate(
      {
        url: RECOVERY_CODES_PATH,
        method: "post",
        values: undefined,
        successNotification: false,
        errorNotification: codedErrorNotification(t, t("twoStep.newCodesFailed")),
      },
      { onSuccess: ({ data }) => setView({ kind: "codes", codes: data.recoveryCodes }) },
    );

  const removeApp = () =>
    remove.mutate(
      {
        url: TOTP_PATH,
        method: "delete",
        values: undefined,
        successNotification: { type: "success", message: t("twoStep.removed") },
        errorNotification: codedErrorNotification(t, t("twoStep.removeFailed")),
      },
      { onSettled: refresh },
    );

  const showStatus = () => {
    setView({ kind: "status" });
    refresh();
  };

  const body = () => {
    if (view.kind === "enrol") {
      return (
        <TotpEnrolmentForm
          enrolment={view.enrolment}
          onConfirmed={(codes) => setView({ kind: "codes", codes, enrolled: true })}
          onCancel={showStatus}
        />
      );
    }
    if (view.kind === "codes") {
      const saved = view.enrolled && onSetUp ? onSetUp : showStatus;
      return <RecoveryCodesView codes={view.codes} onSaved={saved} />;
    }
    if (query.isError) {
      return <QueryError error={query.error} onRetry={refresh} title={t("twoStep.loadFailed")} />;
    }
    // Refine answers an empty object until the first answer: wait for the real one.
    const factors = query.data?.data;
    if (!factors) return <Skeleton active paragraph={{ rows: 2 }} />;
    const anyFactor = factors.totpSince !== null || factors.passkeys.length > 0;
    const few = factors.recoveryCodesLeft <= FEW_RECOVERY_CODES;
    return (
      <Flex vertical gap={24} align="flex-start">
        {!anyFactor && (
          <Flex vertical gap={8}>
            <Typography.Text strong>{t("twoStep.off")}</Typography.Text>
            <Typography.Text type="secondary">{t("twoStep.offHint")}</Typography.Text>
          </Flex>
        )}
        <PasskeysSection
          passkeys={factors.passkeys}
          onAdded={({ recoveryCodes }) =>
            recoveryCodes
              ? setView({ kind: "codes", codes: recoveryCodes, enrolled: true })
              : refresh()
          }
          onRemoved={refresh}
        />
        <Flex vertical gap={12} align="flex-start">
          <Typography.Title level={3} style={subtitle}>
            {t("twoStep.appTitle")}
          </Typography.Title>
          {factors.totpSince ? (
            <Flex gap={8} wrap align="center">
              <Typography.Text strong>
                <SafetyCertificateOutlined aria-hidden style={{ marginInlineEnd: 8 }} />
                {t("twoStep.on", { date: formatDate(factors.totpSince) })}
              </Typography.Text>
              <ConfirmButton
                danger
                icon={<DeleteOutlined aria-hidden />}
                label={t("twoStep.removeLabel")}
                title={t("twoStep.removeTitle")}
                description={
                  factors.passkeys.length > 0
                    ? t("twoStep.removeBodyPasskeys")
                    : t("twoStep.removeBody")
                }
                okText={t("twoStep.remove")}
                loading={remove.mutation.isPending}
                onConfirm={removeApp}
              >
                {t("twoStep.remove")}
              </ConfirmButton>
            </Flex>
          ) : (
            <>
              {anyFactor && <Typography.Text>{t("twoStep.appOff")}</Typography.Text>}
              <Button
                type={anyFactor ? "default" : "primary"}
                icon={<SafetyCertificateOutlined aria-hidden />}
                loading={start.mutation.isPending}
                onClick={setUp}
              >
                {t("twoStep.setUp")}
              </Button>
            </>
          )}
        </Flex>
        {anyFactor && (
          <Flex vertical gap={12} align="flex-start">
            <Typography.Title level={3} style={subtitle}>
              {t("twoStep.codesTitle")}
            </Typography.Title>
            <Typography.Text>
              <KeyOutlined aria-hidden style={{ marginInlineEnd: 8 }} />
              {t("twoStep.codesLeft", { count: factors.recoveryCodesLeft })}
            </Typography.Text>
            {few && <Alert type="warning" showIcon message={t("twoStep.codesLow")} />}
            <ConfirmButton
              icon={<ReloadOutlined aria-hidden />}
              title={t("twoStep.newCodesTitle")}
              description={t("twoStep.newCodesBody")}
              okText={t("twoStep.newCodesOk")}
              loading={renew.mutation.isPending}
              onConfirm={newCodes}
            >
              {t("twoStep.newCodes")}
            </ConfirmButton>
          </Flex>
        )}
      </Flex>
    );
  };

  return <Panel title={t("twoStep.title")}>{body()}</Panel>;
}
