import { EditOutlined } from "@ant-design/icons";
import { useGetIdentity } from "@refinedev/core";
import { Button, Space, Table } from "antd";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";

import { renderCell } from "../../app/kit/cells";
import { ModuleList } from "../../app/kit/module-list";
import { administrators, type AdminDto } from "../../shared/modules/administrators";
import { mayManageAdministrator } from "../../shared/permissions";
import { adminEditPath } from "./paths";
import { SuperAdminTag } from "./status-tag";
import { StatusToggle } from "./status-toggle";

/**
 * Admin: the generated list (its "New administrator" button from the declared create form), with
 * the super administrator marked, and edit / disable on each row (the status action's own button,
 * with its confirmation, shown only on administrators the viewer may change).
 */
export default function AdministratorList() {
  const { t } = useTranslation(["admin", "kit"]);
  const navigate = useNavigate();
  const { data: me } = useGetIdentity<AdminDto>();
  return (
    <ModuleList
      module={administrators}
      ownActions
      render={{
        name: (name, row) => (
          <Space size={6} wrap>
            {renderCell(t, administrators, "name", name, row)}
            {row.isSuperAdmin === true && <SuperAdminTag />}
            {row.id === me?.id && <span>({t("list.you")})</span>}
          </Space>
        ),
      }}
      extraColumns={
        <Table.Column<AdminDto>
          key="actions"
          title={t("list.actions")}
          fixed="right"
          width={180}
          render={(_, admin) =>
            // Only on administrators the viewer may change (the server refuses the rest).
            me !== undefined &&
            mayManageAdministrator(me, admin) && (
              <Space size={4}>
                <Button
                  size="small"
                  icon={<EditOutlined aria-hidden />}
                  aria-label={t("list.editNamed", { name: admin.name })}
                  onClick={() => navigate(adminEditPath(admin.id))}
                >
                  {t("list.edit")}
                </Button>
                {admin.id !== me.id && <StatusToggle admin={admin} size="small" />}
              </Space>
            )
          }
        />
      }
    />
  );
}
