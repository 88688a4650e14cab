import { useCustomMutation, useInvalidate } from "@refinedev/core";
import { Alert, Button, Flex } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Panel } from "../../app/components/panel";
import type { AdminDto } from "../../providers/api-types";
import { translateApiError } from "../../providers/errors";
import { PERMISSION_CODES } from "../../shared/permissions";
import { actionUrl } from "../../app/kit/decision";
import { administrators } from "../../shared/modules/administrators";
import { PermissionCheckboxes } from "./permission-checkboxes";
import { useSyncSelf } from "./use-sync-self";

const sameCodes = (a: readonly number[], b: readonly number[]) =>
  a.length === b.length && a.every((code) => b.includes(code));

/**
 * An administrator's permissions by module, editable unless they are a super administrator or
 * `editable` says the viewer may not change this administrator.
 * The server has the last word (e.g. LAST_ADMIN_HOLDER when nobody active would keep Admin);
 * its refusal is shown here in the administrator's language.
 */
export function PermissionEditor({ admin, editable }: { admin: AdminDto; editable: boolean }) {
  const { t } = useTranslation("admin");
  const invalidate = useInvalidate();
  const syncSelf = useSyncSelf();
  const [codes, setCodes] = useState<number[]>(admin.permissions);
  const [savedCodes, setSavedCodes] = useState<number[]>(admin.permissions);
  const [refusal, setRefusal] = useState<string>();
  const { mutate, mutation } = useCustomMutation<AdminDto>();

  // A refetch brought new permissions (saved here or elsewhere): show them.
  if (!sameCodes(admin.permissions, savedCodes)) {
    setSavedCodes(admin.permissions);
    setCodes(admin.permissions);
  }

  const save = () => {
    setRefusal(undefined);
    mutate(
      {
        // The module's declared permission action (guarded, audited and locked by the kit).
        url: actionUrl(administrators, administrators.actions.permissions, admin.id),
        method: "patch",
        values: { permissions: codes },
        successNotification: {
          type: "success",
          message: t("permissions.saved", { name: admin.name }),
        },
        // The refusal is shown in the editor itself (below); a toast would repeat it.
        errorNotification: false,
      },
      {
        onSuccess: ({ data }) => {
          syncSelf(data);
          void invalidate({
            resource: "administrators",
            invalidates: ["detail", "list"],
            id: admin.id,
          });
        },
        onError: (error) => setRefusal(translateApiError(error, t)),
      },
    );
  };

  const title = t("permissions.title");

  // Shown, not editable: a super administrator's (all codes), or one holding a code the viewer
  // lacks (the server would refuse any change, issue 30).
  if (admin.isSuperAdmin || !editable) {
    return (
      <Panel title={title}>
        <Alert
          type="info"
          showIcon
          message={t(admin.isSuperAdmin ? "permissions.superAdminNote" : "permissions.notHeldNote")}
          style={{ marginBottom: 16 }}
        />
        <PermissionCheckboxes
          value={admin.isSuperAdmin ? [...PERMISSION_CODES] : admin.permissions}
          disabled
        />
      </Panel>
    );
  }

  const changed = !sameCodes(codes, savedCodes);
  return (
    <Panel title={title}>
      {refusal && (
        <Alert
          type="error"
          showIcon
          message={t("permissions.failed")}
          description={refusal}
          style={{ marginBottom: 16 }}
          closable
          onClose={() => setRefusal(undefined)}
        />
      )}
      <PermissionCheckboxes value={codes} onChange={setCodes} />
      <Flex gap={8} justify="flex-end" style={{ marginTop: 16 }}>
        <Button disabled={!changed || mutation.isPending} onClick={() => setCodes(savedCodes)}>
          {t("permissions.reset")}
        </Button>
        <Button type="primary" disabled={!changed} loading={mutation.isPending} onClick={save}>
          {t("permissions.save")}
        </Button>
      </Flex>
    </Panel>
  );
}
