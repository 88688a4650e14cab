import { ArrowLeftOutlined } from "@ant-design/icons";
import { useForm } from "@refinedev/antd";
import type { HttpError } from "@refinedev/core";
import { Button, Flex, Form, Skeleton } from "antd";
import { useTranslation } from "react-i18next";
import { useNavigate, useParams } from "react-router";
import type { z } from "zod";
import { codedErrorNotification, errorCodeOf } from "../../app/components/notifications";
import { PageHeader } from "../../app/components/page-header";
import { Panel } from "../../app/components/panel";
import { QueryError } from "../../app/components/query-error";
import type { AdminDto } from "../../providers/api-types";
import { translateApiError } from "../../providers/errors";
import type { administrators } from "../../shared/modules/administrators";
import { EmailField, NameField } from "./form-fields";
import { adminShowPath } from "./paths";
import { useSyncSelf } from "./use-sync-self";

/**
 * What the screen's inputs hold: the declaration's edit form, name and e-mail. Status and
 * permissions change through the module's actions (the status buttons, the permission editor).
 */
type EditAdminValues = Required<z.input<NonNullable<typeof administrators.edit>["body"]>>;

const FIELD_OF_CODE: Record<string, keyof EditAdminValues> = { EMAIL_TAKEN: "email" };

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
    successNotification: (data) => ({
      type: "success",
      message: t("edit.saved", { name: data?.data.name ?? "" }),
    }),
    errorNotification: codedErrorNotification(t, t("edit.failed"), Object.keys(FIELD_OF_CODE)),
    onMutationSuccess: ({ data }) => syncSelf(data),
    onMutationError: (error) => {
      const field = FIELD_OF_CODE[errorCodeOf(error) ?? ""];
      if (field) form.setFields([{ name: field, errors: [translateApiError(error, t)] }]);
    },
  });
  const admin = query?.data?.data;

  const submit = (values: Partial<EditAdminValues>) => {
    if (!admin) return;
    // Only what changed is sent: nobody's edit should overwrite fields they left alone.
    const changes = changedFields(admin, values);
    if (Object.keys(changes).length === 0) {
      navigate(adminShowPath(admin.id));
      return;
    }
    void onFinish(changes);
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
