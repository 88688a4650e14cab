import { UploadOutlined } from "@ant-design/icons";
import { useCustomMutation } from "@refinedev/core";
import { App, Button, Form, Input, Modal, Select, Upload, type UploadFile } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { RiderDetails, UserDetail } from "../../../providers/api-types";
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
import { documentProblem, RIDER_EDIT_URL, riderEditForm, type RiderEditValues } from "./requests";
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
export function EditRiderDialog({ user, rider, onClose, onDone }: EditRiderDialogProps) {
  const { t } = useTranslation("riders");
  const { message } = App.useApp();
  const [form] = Form.useForm<RiderEditValues>();
  const [files, setFiles] = useState<UploadFile[]>([]);
  const refreshUser = useRefreshUser(user);
  const { mutate, mutation } = useCustomMutation<RiderDetails>();

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

  const submit = (values: RiderEditValues) =>
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
        successNotification: { type: "success", message: t("edit.saved") },
        errorNotification: riderErrorNotification(t, t("edit.failed")),
      },
      {
        onSuccess: () => {
          refreshUser();
          onDone();
          onClose();
        },
      },
    );

  return (
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
      <Form
        form={form}
        layout="vertical"
        onFinish={submit}
        initialValues={{
          vehicle_type: isVehicleType(rider.vehicleType) ? rider.vehicleType : undefined,
          plate: rider.plate,
          licence_number: rider.licenceNumber,
        }}
      >
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
  );
}
