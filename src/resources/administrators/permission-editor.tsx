import { useCustomMutation, useInvalidate, type HttpError } from "@refinedev/core";
import { Alert, Button, Flex, Form } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Panel } from "../../app/components/panel";
import { actionUrl } from "../../app/kit/decision";
import {
  CHANGE_REASON_FIELD,
  FourEyesNotice,
  needsApproval,
  pendingText,
  reasonHeaders,
  ReasonInput,
  useRefreshChangeRequests,
} from "../../app/kit/four-eyes";
import type { AdminDto } from "../../providers/api-types";
import { translateApiError } from "../../providers/errors";
import { isPendingApproval, type PendingApprovalAnswer } from "../../shared/kit/four-eyes";
import { administrators } from "../../shared/modules/administrators";
import { PERMISSION_CODES } from "../../shared/permissions";
import { PermissionCheckboxes } from "./permission-checkboxes";
import { useSyncSelf } from "./use-sync-self";
import { ifMatchHeaders, versionConflictOf } from "../../app/kit/version-conflict";

const sameCodes = (a: readonly number[], b: readonly number[]) =>
  a.length === b.length && a.every((code) => b.includes(code));

/** The module's declared permission action (guarded, audited and locked by the kit). */
const PERMISSIONS_ACTION = administrators.actions.permissions;

/**
 * An administrator's permissions by module, editable unless they are a super administrator or
 * `editable` says the viewer may not change this administrator.
 * The server has the last word (e.g. LAST_ADMIN_HOLDER when nobody active would keep Admin);
 * its refusal is shown here in the administrator's language.
 * Power granted or taken waits for a second approver (the action's `fourEyes`, docs/four-eyes.md):
 * the editor says so, asks the maker for a reason (sent as the `x-change-reason` header) and, on
 * the 202 answer, names the change request instead of saying the permissions were saved.
 */
export function PermissionEditor({ admin, editable }: { admin: AdminDto; editable: boolean }) {
  const { t } = useTranslation(["admin", "kit"]);
  const invalidate = useInvalidate();
  const syncSelf = useSyncSelf();
  const refreshChangeRequests = useRefreshChangeRequests();
  const [form] = Form.useForm<{ [CHANGE_REASON_FIELD]?: string }>();
  const [codes, setCodes] = useState<number[]>(admin.permissions);
  const [savedCodes, setSavedCodes] = useState<number[]>(admin.permissions);
  const [refusal, setRefusal] = useState<string>();
  const { mutate, mutation } = useCustomMutation<AdminDto | PendingApprovalAnswer>();
  const fourEyes = PERMISSIONS_ACTION.fourEyes;
  // Every change of permissions waits (no amount, no threshold): the reason is always asked.
  const asksReason = needsApproval(fourEyes, undefined, undefined) === true;

  // A refetch brought new permissions (saved here or elsewhere): show them.
  if (!sameCodes(admin.permissions, savedCodes)) {
    setSavedCodes(admin.permissions);
    setCodes(admin.permissions);
  }

  const send = (reason: string | undefined) => {
    // Based on the permissions shown (the record's version: docs/versions.md).
    const sent = { ...reasonHeaders(reason), ...ifMatchHeaders(administrators, admin.id, admin) };
    const headers = Object.keys(sent).length > 0 ? sent : undefined;
    mutate(
      {
        url: actionUrl(administrators, PERMISSIONS_ACTION, admin.id),
        method: "patch",
        values: { permissions: codes },
        ...(headers ? { config: { headers } } : {}),
        successNotification: (answer) => ({
          type: "success",
          // Nothing is saved yet when the change waits for a second approver: say so, and where.
          message: isPendingApproval(answer?.data)
            ? pendingText(t, [answer.data])
            : t("permissions.saved", { name: admin.name }),
        }),
        // The refusal is shown in the editor itself (below); a toast would repeat it.
        errorNotification: false,
      },
      {
        onSuccess: ({ data }) => {
          if (isPendingApproval(data)) {
            // The permissions in force are unchanged until the checker approves.
            setCodes(savedCodes);
            form.resetFields();
            void refreshChangeRequests();
            return;
          }
          syncSelf(data);
          void invalidate({
            resource: "administrators",
            invalidates: ["detail", "list"],
            id: admin.id,
          });
        },
        onError: (error: HttpError) => {
          setRefusal(translateApiError(error, t));
          // Someone changed the administrator meanwhile: show the permissions as they are now.
          if (versionConflictOf(error)) {
            void invalidate({ resource: "administrators", invalidates: ["detail"], id: admin.id });
          }
        },
      },
    );
  };

  const save = async () => {
    setRefusal(undefined);
    if (!asksReason) {
      send(undefined);
      return;
    }
    // Nothing is sent without the reason the approver reads.
    const values = await form.validateFields().catch(() => undefined);
    if (values) send(values[CHANGE_REASON_FIELD]);
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
      <FourEyesNotice decl={fourEyes} thresholdSen={undefined} />
      <PermissionCheckboxes value={codes} onChange={setCodes} />
      {asksReason && changed && (
        <Form
          form={form}
          layout="vertical"
          disabled={mutation.isPending}
          style={{ marginTop: 16 }}
          onFinish={() => void save()}
        >
          <ReasonInput />
        </Form>
      )}
      <Flex gap={8} justify="flex-end" style={{ marginTop: 16 }}>
        <Button disabled={!changed || mutation.isPending} onClick={() => setCodes(savedCodes)}>
          {t("permissions.reset")}
        </Button>
        <Button
          type="primary"
          disabled={!changed}
          loading={mutation.isPending}
          onClick={() => void save()}
        >
          {t("permissions.save")}
        </Button>
      </Flex>
    </Panel>
  );
}
