import { UploadOutlined } from "@ant-design/icons";
import { useCustomMutation } from "@refinedev/core";
import { App, Button, Form, Input, Modal, Select, Upload, type UploadFile } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import {
  ifMatchHeaders,
  VersionConflictDialog,
  versionConflictOf,
} from "../../../app/kit/version-conflict";
import type { RiderDetails, UserDetail } from "../../../providers/api-types";
import { http } from "../../../providers/http";
import type { VersionConflictData } from "../../../shared/kit/versions";
import { users } from "../../../shared/modules/users";
import {
  DOCUMENT_MAX_BYTES,
  DOCUMENT_TYPES,
  DOCUMENTS_PER_REQUEST,
  LICENCE_NUMBER_MAX_LENGTH,
  LICENCE_NUMBER_PATTERN,
  PLATE_MAX_LENGTH,
  PLATE_PATTERN,
  VEHICLE_TYPES,
  type VehicleType,
} from "../../../shared/riders";
import { riderErrorNotification } from "./errors";
import {
  documentProblem,
  RIDER_DETAILS_URL,
  RIDER_EDIT_URL,
  riderDetailsQuery,
  riderEditForm,
  type RiderEditValues,
} from "./requests";
import { useRefreshUser } from "./use-refresh";

interface EditRiderDialogProps {
  user: UserDetail;
  rider: RiderDetails["rider"];
  onClose: () => void;
  onDone: () => void;
}

const ACCEPT = DOCUMENT_TYPES.flatMap((type) => [type.contentType, ...type.extensions]).join(",");
const isVehicleType = (value: string): value is VehicleType =>
  (VEHICLE_TYPES as readonly string[]).includes(value);

/** Changes a rider's vehicle, plate and licence and adds documents, in one multipart call. */
/** The rider's facts the form edits, under the names the conflict dialog compares. */
const factsOf = (rider: RiderFacts) => ({
  vehicleType: rider.vehicleType,
  plate: rider.plate,
  licenceNumber: rider.licenceNumber,
});
const FACTS = ["vehicleType", "plate", "licenceNumber"] as const;

type RiderFacts = Pick<RiderDetails["rider"], (typeof FACTS)[number]>;

/** The form's values for a rider's facts (a vehicle the form does not offer is left to choose). */
const formValuesOf = (facts: RiderFacts) => ({
  vehicle_type: isVehicleType(facts.vehicleType) ? facts.vehicleType : undefined,
  plate: facts.plate,
  licence_number: facts.licenceNumber,
});

/** What the form sends, as the rider's facts. */
const factsOfValues = (values: RiderEditValues): RiderFacts => ({
  vehicleType: values.vehicle_type,
  plate: values.plate.trim(),
  licenceNumber: values.licence_number.trim(),
});

/** A refused save (the user moved on): the rider's facts now, and what the form sent. */
interface RiderConflict {
  data: VersionConflictData;
  current: RiderFacts;
  values: RiderEditValues;
}

/**
 * Changes a rider's vehicle, plate and licence and adds documents, in one multipart call. The
 * rider's facts are part of the user (docs/versions.md): the save is based on the user's version
 * as the dialog opened, and a user changed since (by anyone) is refused and compared here.
 */
export function EditRiderDialog({ user, rider, onClose, onDone }: EditRiderDialogProps) {
  const { t } = useTranslation(["riders", "users", "kit"]);
  const { message } = App.useApp();
  const [form] = Form.useForm<RiderEditValues>();
  const [files, setFiles] = useState<UploadFile[]>([]);
  const refreshUser = useRefreshUser(user);
  const { mutate, mutation } = useCustomMutation<RiderDetails>();
  // What the save is based on: the user's version and the rider's facts as the dialog opened.
  const [based, setBased] = useState(() => ({
    ifMatch: ifMatchHeaders(users, user.id, user),
    facts: factsOf(rider) as Record<string, unknown>,
  }));
  const [conflict, setConflict] = useState<RiderConflict>();
  const vehicle = (value: unknown) =>
    isVehicleType(String(value)) ? t(`vehicleType.${String(value)}`) : String(value ?? "");

  /** A conflict: the rider's facts are read as they are now, to compare. */
  const refused = async (error: unknown, values: RiderEditValues) => {
    const data = versionConflictOf(error);
    if (!data) return;
    refreshUser();
    onDone();
    const { data: now } = await http
      .get<RiderDetails>(RIDER_DETAILS_URL, { params: riderDetailsQuery(user.accountNumber) })
      .catch(() => ({ data: { rider } }));
    setConflict({ data, current: factsOf(now.rider), values });
  };

  const refuse = (file: File, chosen: number) => {
    const problem = documentProblem(file, chosen);
    if (problem) {
      void message.error(
        t(`file.${problem}`, {
          name: file.name,
          mb: DOCUMENT_MAX_BYTES / 1024 / 1024,
          max: DOCUMENTS_PER_REQUEST,
        }),
      );
    }
    return problem;
  };

  const notify = riderErrorNotification(t, t("edit.failed"));
  const submit = (values: RiderEditValues, ifMatch = based.ifMatch) =>
    mutate(
      {
        url: RIDER_EDIT_URL,
        method: "post",
        values: riderEditForm(
          user.accountNumber,
          values,
          files
            .map((file) => file.originFileObj)
            .filter((file): file is NonNullable<typeof file> => !!file),
        ),
        config: { headers: ifMatch },
        successNotification: { type: "success", message: t("edit.saved") },
        // A conflict is shown by the comparison, not a toast.
        errorNotification: (error) => (versionConflictOf(error) ? false : notify(error)),
      },
      {
        onSuccess: () => {
          refreshUser();
          onDone();
          onClose();
        },
        onError: (error) => void refused(error, values),
      },
    );

  return (
    <>
      {conflict && (
        <VersionConflictDialog
          module={users}
          conflict={conflict.data}
          based={based.facts}
          yours={factsOfValues(conflict.values)}
          terms={{
            fields: FACTS,
            current: conflict.current,
            label: (field) => t(`details.${field}`),
            show: (field, value) =>
              field === "vehicleType" ? vehicle(value) : String(value ?? ""),
          }}
          applying={mutation.isPending}
          onApply={() => {
            const ifMatch = { "If-Match": conflict.data.etag };
            setBased({ ifMatch, facts: conflict.current });
            setConflict(undefined);
            submit(conflict.values, ifMatch);
          }}
          onDiscard={() => {
            setBased({ ifMatch: { "If-Match": conflict.data.etag }, facts: conflict.current });
            form.setFieldsValue(formValuesOf(conflict.current));
            setConflict(undefined);
          }}
        />
      )}
      <Modal
        open
        title={t("edit.title", { name: user.name })}
        okText={t("edit.save")}
        okButtonProps={{ loading: mutation.isPending }}
        cancelText={t("common:cancel")}
        onOk={() => form.submit()}
        onCancel={onClose}
        destroyOnHidden
      >
        <Form form={form} layout="vertical" onFinish={submit} initialValues={formValuesOf(rider)}>
          <Form.Item
            name="vehicle_type"
            label={t("details.vehicleType")}
            rules={[{ required: true, message: t("edit.vehicleRequired") }]}
          >
            <Select
              options={VEHICLE_TYPES.map((value) => ({
                value,
                label: t(`vehicleType.${value}`),
              }))}
            />
          </Form.Item>
          <Form.Item
            name="plate"
            label={t("details.plate")}
            rules={[
              { required: true, whitespace: true, message: t("edit.plateRequired") },
              { max: PLATE_MAX_LENGTH, message: t("edit.tooLong", { max: PLATE_MAX_LENGTH }) },
              { pattern: PLATE_PATTERN, message: t("edit.plateInvalid") },
            ]}
          >
            <Input maxLength={PLATE_MAX_LENGTH} />
          </Form.Item>
          <Form.Item
            name="licence_number"
            label={t("details.licenceNumber")}
            rules={[
              { required: true, whitespace: true, message: t("edit.licenceRequired") },
              {
                max: LICENCE_NUMBER_MAX_LENGTH,
                message: t("edit.tooLong", { max: LICENCE_NUMBER_MAX_LENGTH }),
              },
              { pattern: LICENCE_NUMBER_PATTERN, message: t("edit.licenceInvalid") },
            ]}
          >
            <Input maxLength={LICENCE_NUMBER_MAX_LENGTH} />
          </Form.Item>
          <Form.Item
            label={t("edit.documents")}
            extra={t("edit.documentsHelp", {
              mb: DOCUMENT_MAX_BYTES / 1024 / 1024,
              max: DOCUMENTS_PER_REQUEST,
            })}
          >
            <Upload
              multiple
              accept={ACCEPT}
              fileList={files}
              beforeUpload={(file, batch) => {
                const chosen = files.length + batch.indexOf(file);
                if (refuse(file, chosen)) return Upload.LIST_IGNORE;
                setFiles((current) => [
                  ...current,
                  { uid: file.uid, name: file.name, size: file.size, originFileObj: file },
                ]);
                return false;
              }}
              onRemove={(file) =>
                setFiles((current) => current.filter((candidate) => candidate.uid !== file.uid))
              }
            >
              <Button icon={<UploadOutlined aria-hidden />}>{t("edit.choose")}</Button>
            </Upload>
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}
