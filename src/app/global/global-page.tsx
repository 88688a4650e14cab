import { useCustom, useCustomMutation } from "@refinedev/core";
import {
  Alert,
  Button,
  Form,
  Input,
  InputNumber,
  Modal,
  Radio,
  Skeleton,
  Switch,
  Table,
  Typography,
} from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";

import { formatBasisPoints } from "../../shared/money";
import {
  GLOBAL_SETTING_KEYS,
  globalSettingsBody,
  maintenanceExplained,
  SECOND_FACTOR_REQUIREMENTS,
  type GlobalSettingKey,
  type GlobalSettings,
  type GlobalSettingsAnswer,
} from "../../shared/global-settings";
import { toApiError, translateApiError } from "../../providers/errors";
import { isPendingApproval, type PendingApprovalAnswer } from "../../shared/kit/four-eyes";
import { PageHeader } from "../components/page-header";
import {
  CHANGE_REASON_FIELD,
  FourEyesNotice,
  pendingText,
  reasonHeaders,
  ReasonInput,
  useRefreshChangeRequests,
} from "../kit/four-eyes";
import { Panel } from "../components/panel";
import { PermissionCheckboxes } from "../../resources/administrators/permission-checkboxes";
import { PERMISSION_MODULES } from "../../shared/permissions";

export const GLOBAL_SETTINGS_PATH = "/api/global-settings";

/** Every change of the settings waits for a second administrator holding Global (20). */
const GLOBAL_FOUR_EYES = {};

/** What the form holds: the settings, the fee rate typed as a percentage, no e-mail as "". */
type Values = Omit<GlobalSettings, "supportEmail" | "defaultFeeRateBp"> & {
  supportEmail: string;
  defaultFeeRatePercent: number | null;
};

const toValues = (settings: GlobalSettings): Values => {
  const { supportEmail, defaultFeeRateBp, ...rest } = settings;
  return {
    ...rest,
    supportEmail: supportEmail ?? "",
    defaultFeeRatePercent: defaultFeeRateBp / 100,
  };
};

const toSettings = (values: Values): Record<GlobalSettingKey, unknown> => {
  const { supportEmail, defaultFeeRatePercent, ...rest } = values;
  return {
    ...rest,
    supportEmail: supportEmail.trim() === "" ? null : supportEmail.trim(),
    defaultFeeRateBp:
      defaultFeeRatePercent === null ? null : Math.round(defaultFeeRatePercent * 100),
  };
};

/** Whether a setting's value differs (the codes are a list: compared by what they hold). */
const differs = (a: unknown, b: unknown) => JSON.stringify(a) !== JSON.stringify(b);

/** The form's name of a setting (the fee rate is typed as a percentage). */
const inputOf = (key: GlobalSettingKey): keyof Values =>
  key === "defaultFeeRateBp" ? "defaultFeeRatePercent" : key;

/**
 * Global (20): the service's settings. A save shows every changed setting old → new and asks for
 * the reason a second administrator reads (four eyes: the change waits for their approval); the
 * server checks the same rules (src/shared/global-settings.ts) and audits the change.
 */
export default function GlobalPage() {
  const { t, i18n } = useTranslation(["global", "kit", "admin"]);
  const [form] = Form.useForm<Values>();
  const [review, setReview] =
    useState<Array<{ key: GlobalSettingKey; old: string; next: string }>>();
  const [pending, setPending] = useState<Record<string, unknown>>({});
  const { query, result } = useCustom<GlobalSettingsAnswer>({
    url: GLOBAL_SETTINGS_PATH,
    method: "get",
    errorNotification: false,
  });
  const { mutate, mutation } = useCustomMutation<GlobalSettingsAnswer | PendingApprovalAnswer>();
  const [reasonForm] = Form.useForm<{ [CHANGE_REASON_FIELD]?: string }>();
  const refreshChangeRequests = useRefreshChangeRequests();
  const current = query.isSuccess ? result.data : undefined;
  const requirement = Form.useWatch("secondFactorRequired", form);

  if (query.isError) {
    return (
      <>
        <PageHeader title={t("title")} />
        <Alert
          type="error"
          showIcon
          message={t("loadFailed")}
          action={<Button onClick={() => void query.refetch()}>{t("retry")}</Button>}
        />
      </>
    );
  }
  if (!current) return <Skeleton active />;

  const shown = (key: GlobalSettingKey, value: unknown): string => {
    if (value === null || value === "") {
      return key === "supportEmail"
        ? t("fallback", { email: current.supportEmailFallback ?? t("none") })
        : t("empty");
    }
    if (typeof value === "boolean") return t(value ? "on" : "off");
    if (key === "defaultFeeRateBp") return formatBasisPoints(Number(value));
    if (key === "secondFactorRequired") return t(`secondFactor.${String(value)}`);
    if (key === "secondFactorCodes") {
      const codes = value as number[];
      const names = PERMISSION_MODULES.filter((m) => codes.includes(m.code)).map((m) =>
        t(`admin:permissions.modules.${m.key}`),
      );
      return names.length > 0 ? names.join(", ") : t("empty");
    }
    return String(value);
  };

  /** A refusal in this page's words (`global:errors.<CODE>`), else the console's. */
  const errorText = (error: unknown) => {
    const apiError = toApiError(error);
    const key = `errors.${apiError.kind === "coded" ? apiError.code : ""}`;
    return apiError.kind === "coded" && i18n.exists(`global:${key}`)
      ? t(key)
      : translateApiError(apiError, (k, options) => String(t(k, options)));
  };

  // A problem shown under an input goes once its cause is gone: each check and each save starts
  // from none (antd keeps an input's error until that input itself changes).
  const clearProblems = () =>
    form.setFields(GLOBAL_SETTING_KEYS.map((key) => ({ name: inputOf(key), errors: [] })));

  const submit = (values: Values) => {
    clearProblems();
    const next = toSettings(values);
    const changed = GLOBAL_SETTING_KEYS.filter((key) => differs(next[key], current[key]));
    if (changed.length === 0) {
      setReview([]);
      return;
    }
    const body = Object.fromEntries(changed.map((key) => [key, next[key]]));
    const parsed = globalSettingsBody.safeParse(body);
    const merged = { ...current, ...body } as GlobalSettings;
    const problems = parsed.success ? [] : parsed.error.issues;
    const fieldErrors = problems.map((issue) => ({
      name: inputOf(issue.path[0] as GlobalSettingKey),
      errors: [t(`invalid.${String(issue.path[0])}`)],
    }));
    if (parsed.success && !maintenanceExplained(merged)) {
      for (const key of ["maintenanceMessageEn", "maintenanceMessageZh"] as const) {
        if (merged[key].trim() === "") {
          fieldErrors.push({ name: key, errors: [t("invalid.maintenanceMessage")] });
        }
      }
    }
    if (fieldErrors.length > 0) {
      form.setFields(fieldErrors);
      return;
    }
    setPending(body);
    setReview(
      changed.map((key) => ({ key, old: shown(key, current[key]), next: shown(key, next[key]) })),
    );
  };

  const save = ({ [CHANGE_REASON_FIELD]: reason }: { [CHANGE_REASON_FIELD]?: string }) =>
    mutate(
      {
        url: GLOBAL_SETTINGS_PATH,
        method: "patch",
        values: pending,
        config: { headers: reasonHeaders(reason) },
        // A change waits for a second administrator holding Global: the request's reference.
        successNotification: (answer) => ({
          type: "success",
          message: isPendingApproval(answer?.data) ? pendingText(t, [answer.data]) : t("saved"),
        }),
        errorNotification: (error) => ({
          type: "error",
          message: t("failed"),
          description: errorText(error),
        }),
      },
      {
        onSuccess: ({ data }) => {
          setReview(undefined);
          if (isPendingApproval(data)) {
            void refreshChangeRequests();
            return;
          }
          form.setFieldsValue(toValues(data));
          clearProblems();
          void query.refetch();
        },
      },
    );

  return (
    <>
      <PageHeader title={t("title")} />
      <Panel title={t("intro")}>
        <Form<Values>
          form={form}
          layout="vertical"
          initialValues={toValues(current)}
          onFinish={submit}
          style={{ maxWidth: 640 }}
        >
          <Form.Item
            name="supportEmail"
            label={t("fields.supportEmail")}
            extra={t("supportEmailHelp", { email: current.supportEmailFallback ?? t("none") })}
          >
            <Input inputMode="email" autoComplete="off" />
          </Form.Item>
          <Form.Item
            name="maintenanceEnabled"
            label={t("fields.maintenanceEnabled")}
            valuePropName="checked"
          >
            <Switch />
          </Form.Item>
          <Form.Item name="maintenanceMessageEn" label={t("fields.maintenanceMessageEn")}>
            <Input.TextArea rows={2} lang="en" />
          </Form.Item>
          <Form.Item name="maintenanceMessageZh" label={t("fields.maintenanceMessageZh")}>
            <Input.TextArea rows={2} lang="zh-CN" />
          </Form.Item>
          {(["minIosVersion", "minAndroidVersion"] as const).map((name) => (
            <Form.Item key={name} name={name} label={t(`fields.${name}`)} extra={t("versionHelp")}>
              <Input autoComplete="off" style={{ maxWidth: 200 }} />
            </Form.Item>
          ))}
          <Form.Item
            name="defaultFeeRatePercent"
            label={t("fields.defaultFeeRateBp")}
            extra={t("feeRateHelp")}
          >
            <InputNumber<number> min={0} max={100} precision={2} step={0.1} addonAfter="%" />
          </Form.Item>
          <Form.Item
            name="secondFactorRequired"
            label={t("fields.secondFactorRequired")}
            extra={t("secondFactorHelp")}
          >
            <Radio.Group
              options={SECOND_FACTOR_REQUIREMENTS.map((value) => ({
                value,
                label: t(`secondFactor.${value}`),
              }))}
            />
          </Form.Item>
          {/* Kept in the form when hidden: the codes stay what they were for another choice. */}
          <Form.Item
            name="secondFactorCodes"
            label={t("fields.secondFactorCodes")}
            hidden={requirement !== "codes"}
          >
            <PermissionCheckboxes aria-label={t("fields.secondFactorCodes")} />
          </Form.Item>
          <Button type="primary" htmlType="submit">
            {t("review.open")}
          </Button>
        </Form>
      </Panel>
      <Modal
        open={review !== undefined}
        title={review?.length ? t("review.title") : t("review.nothing")}
        onCancel={() => setReview(undefined)}
        onOk={review?.length ? () => reasonForm.submit() : () => setReview(undefined)}
        okText={review?.length ? t("review.save") : t("review.close")}
        confirmLoading={mutation.isPending}
        cancelButtonProps={review?.length ? {} : { style: { display: "none" } }}
        width={640}
        destroyOnHidden
      >
        {review?.length ? (
          <>
            <FourEyesNotice decl={GLOBAL_FOUR_EYES} thresholdSen={undefined} />
            <Table
              size="small"
              pagination={false}
              rowKey="key"
              dataSource={review}
              columns={[
                {
                  title: t("review.setting"),
                  dataIndex: "key",
                  render: (key: string) => t(`fields.${key}`),
                },
                { title: t("review.old"), dataIndex: "old" },
                {
                  title: t("review.new"),
                  dataIndex: "next",
                  render: (value: string) => <Typography.Text strong>{value}</Typography.Text>,
                },
              ]}
            />
            <Form form={reasonForm} layout="vertical" onFinish={save} style={{ marginTop: 16 }}>
              <ReasonInput />
            </Form>
          </>
        ) : (
          t("review.nothingText")
        )}
      </Modal>
    </>
  );
}
