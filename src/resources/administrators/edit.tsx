import { ArrowLeftOutlined } from "@ant-design/icons";
import { useForm } from "@refinedev/antd";
import type { HttpError } from "@refinedev/core";
import { Button, Flex, Form, Skeleton } from "antd";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate, useParams } from "react-router";
import type { z } from "zod";
import { codedErrorNotification, errorCodeOf } from "../../app/components/notifications";
import { PageHeader } from "../../app/components/page-header";
import { Panel } from "../../app/components/panel";
import { QueryError } from "../../app/components/query-error";
import type { AdminDto } from "../../providers/api-types";
import { translateApiError } from "../../providers/errors";
import { administrators } from "../../shared/modules/administrators";
import { useRecordVersion, VersionConflictDialog } from "../../app/kit/version-conflict";
import { EmailField, NameField } from "./form-fields";
import { adminShowPath } from "./paths";
import { useSyncSelf } from "./use-sync-self";

/**
 * What the screen's inputs hold: the declaration's edit form, name and e-mail. Status and
 * permissions change through the module's actions (the status buttons, the permission editor).
 */
type EditAdminValues = Required<z.input<NonNullable<typeof administrators.edit>["body"]>>;

const FIELD_OF_CODE: Record<string, keyof EditAdminValues> = { EMAIL_TAKEN: "email" };
/** Shown by the form itself: a field's refusal, or the conflict dialog (docs/versions.md). */
const SHOWN_INLINE = [...Object.keys(FIELD_OF_CODE), "VERSION_CONFLICT"];

function changedFields(
  admin: AdminDto,
  values: Partial<EditAdminValues>,
): Partial<EditAdminValues> {
  const changes: Partial<EditAdminValues> = {};
  const name = values.name?.trim();
  const email = values.email?.trim();
  if (name !== undefined && name !== admin.name) changes.name = name;
  if (email !== undefined && email !== admin.email) changes.email = email;
  return changes;
}

export default function AdministratorEdit() {
  const { t } = useTranslation("admin");
  const navigate = useNavigate();
  const { id = "" } = useParams();
  const syncSelf = useSyncSelf();
  // Record versions: the save is based on the record as the form opened it.
  const version = useRecordVersion(administrators, id);
  const { form, formProps, saveButtonProps, query, onFinish } = useForm<
    AdminDto,
    HttpError,
    Partial<EditAdminValues>
  >({
    resource: "administrators",
    action: "edit",
    id,
    redirect: "show",
    queryOptions: { enabled: id !== "" },
    mutationMeta: {
      get headers() {
        return version.headers();
      },
    },
    successNotification: (data) => ({
      type: "success",
      message: t("edit.saved", { name: data?.data.name ?? "" }),
    }),
    errorNotification: codedErrorNotification(t, t("edit.failed"), SHOWN_INLINE),
    onMutationSuccess: ({ data }) => syncSelf(data),
    onMutationError: (error) => {
      if (version.refused(error)) return;
      const field = FIELD_OF_CODE[errorCodeOf(error) ?? ""];
      if (field) form.setFields([{ name: field, errors: [translateApiError(error, t)] }]);
    },
  });
  const admin = query?.data?.data;
  useEffect(() => {
    if (admin) version.basedOn(admin as unknown as Record<string, unknown>);
  }, [admin, version]);

  const submit = (values: Partial<EditAdminValues>) => {
    if (!admin) return;
    // Only what changed is sent: nobody's edit should overwrite fields they left alone.
    const changes = changedFields(admin, values);
    if (Object.keys(changes).length === 0) {
      navigate(adminShowPath(admin.id));
      return;
    }
    version.sent(changes);
    // A refusal is shown by the form (a field's error, or the conflict dialog).
    void onFinish(changes).catch(() => undefined);
  };

  const back = (
    <Button
      type="text"
      icon={<ArrowLeftOutlined aria-hidden />}
      aria-label={t("show.back")}
      onClick={() => navigate(adminShowPath(id))}
    />
  );
  const title = admin ? t("edit.titleNamed", { name: admin.name }) : t("edit.title");

  return (
    <>
      {version.conflict && (
        <VersionConflictDialog
          module={administrators}
          conflict={version.conflict.data}
          based={version.conflict.based}
          yours={version.conflict.yours}
          onApply={() => {
            const { body } = version.moveOn();
            // A refusal again is the form's to show (a field, or a new conflict).
            if (body) void onFinish(body as Partial<EditAdminValues>).catch(() => undefined);
          }}
          onDiscard={() => {
            const { current } = version.moveOn();
            form.setFieldsValue({ name: current.name as string, email: current.email as string });
            void query?.refetch();
          }}
        />
      )}
      <PageHeader title={title} back={back} />
      {query?.isError ? (
        <QueryError
          error={query.error}
          onRetry={() => void query.refetch()}
          title={t("show.loadFailed")}
        />
      ) : (
        <Panel>
          {/* The form stays mounted while the record loads so its instance is always connected. */}
          <Form {...formProps} onFinish={submit} layout="vertical" style={{ maxWidth: 560 }}>
            {!admin ? (
              <Skeleton active paragraph={{ rows: 5 }} />
            ) : (
              <>
                <NameField />
                <EmailField excludeId={admin.id} />
                <Flex gap={8} justify="flex-end">
                  <Button onClick={() => navigate(adminShowPath(admin.id))}>
                    {t("common:cancel")}
                  </Button>
                  <Button type="primary" {...saveButtonProps}>
                    {t("edit.submit")}
                  </Button>
                </Flex>
              </>
            )}
          </Form>
        </Panel>
      )}
    </>
  );
}
