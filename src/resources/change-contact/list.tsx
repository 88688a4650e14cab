import { Space, Typography } from "antd";
import { useTranslation } from "react-i18next";

import { renderCell } from "../../app/kit/cells";
import { ModuleList } from "../../app/kit/module-list";
import { changeContact } from "../../shared/modules/change-contact";

/** The generated list; a decision's dialog says what changes ("E-mail: old → new"). */
export default function ChangeContactList() {
  const { t } = useTranslation(["contact", "kit"]);
  return (
    <ModuleList
      module={changeContact}
      render={{
        userName: (name, row) => (
          <Space direction="vertical" size={0}>
            {renderCell(t, changeContact, "userName", name, row)}
            <Typography.Text type="secondary">{String(row.accountNumber)}</Typography.Text>
          </Space>
        ),
      }}
      describe={(row) => (
        <p>
          {t(`contactType.${String(row.contactType)}`)}: {String(row.oldValue ?? t("none"))} →{" "}
          {String(row.newValue)}
        </p>
      )}
    />
  );
}
