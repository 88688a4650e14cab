import { DownOutlined, SaveOutlined } from "@ant-design/icons";
import type { CrudFilter, CrudSort } from "@refinedev/core";
import {
  App,
  Button,
  Checkbox,
  Dropdown,
  Flex,
  Form,
  Input,
  Modal,
  Select,
  type MenuProps,
} from "antd";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useLocation } from "react-router";

import { isApiError, translateApiError } from "../../providers/errors";
import { errorCodeOf } from "../components/notifications";
import { useCurrentAdmin } from "../../providers/current-admin";
import { useSavedViewChange, useSavedViews } from "../../providers/saved-views";
import type { ModuleDecl } from "../../shared/kit/module";
import {
  SAVED_VIEW_LIMITS,
  SAVED_VIEW_PAGE_SIZES,
  type DroppedPart,
  type SavedView,
  type ViewFilter,
  type ViewState,
} from "../../shared/saved-views";
import { ColumnSettings, type ColumnState } from "./column-settings";
import { fieldLabel } from "./texts";

/** What the toolbar reads from the list and changes in it. */
export interface ListState {
  filters: CrudFilter[];
  sorters: CrudSort[];
  pageSize: number;
  columns: ColumnState;
  /** Applies a view's state: filters (and the filter controls), sort, page size, columns. */
  apply: (state: ViewState) => void;
}

/** URL parameters that say the list was opened in a state of its own (a link, a reload). */
const OWN_STATE = /(^|[?&])(filters|sorters|pageSize|currentPage|current)(\[|=)/;

const isSet = (value: unknown) =>
  value !== undefined &&
  value !== null &&
  value !== "" &&
  !(Array.isArray(value) && (value.length === 0 || value.every((item) => item === undefined)));

/** The list's state as a view keeps it: set filters only, never the list's fixed ones. */
export function viewStateOf(module: ModuleDecl, list: Omit<ListState, "apply">): ViewState {
  const filters = list.filters.flatMap((filter): ViewFilter[] => {
    if (!("field" in filter) || !isSet(filter.value)) return [];
    if (module.fixedFilters?.[filter.field] !== undefined) return [];
    return [{ field: filter.field, operator: filter.operator, value: filter.value } as ViewFilter];
  });
  const sorters = list.sorters
    .slice(0, SAVED_VIEW_LIMITS.sorters)
    .map(({ field, order }) => ({ field, order }));
  const pageSize = (SAVED_VIEW_PAGE_SIZES as readonly number[]).includes(list.pageSize)
    ? list.pageSize
    : SAVED_VIEW_PAGE_SIZES[0];
  return {
    filters,
    sorters,
    pageSize,
    ...(list.columns.columns ? { columns: list.columns.columns } : {}),
    ...(list.columns.widths && Object.keys(list.columns.widths).length > 0
      ? { widths: list.columns.widths }
      : {}),
  };
}

type Dialog = { kind: "save" } | { kind: "rename"; view: SavedView };

/**
 * The list's saved views (docs/saved-views.md): pick one, save the list as it is under a name
 * (private or shared), update, rename, share or delete the current view, make it one's default.
 * The list opens with the administrator's default view when its URL carries no state of its own.
 */
export function SavedViews({ module, list }: { module: ModuleDecl; list: ListState }) {
  const { t } = useTranslation([module.i18n, "kit", "errors"]);
  const { message, notification, modal } = App.useApp();
  const admin = useCurrentAdmin();
  const location = useLocation();
  const views = useSavedViews(module.name);
  const change = useSavedViewChange(module.name);
  const [currentId, setCurrentId] = useState<number>();
  const [dialog, setDialog] = useState<Dialog>();
  const [form] = Form.useForm<{ name: string; shared: boolean }>();
  // Whether the list was opened in a state of its own, read once, before the list writes its own.
  const [ownState] = useState(() => OWN_STATE.test(location.search));
  const opened = useRef(false);

  const all = views.data?.views ?? [];
  const current = all.find((view) => view.id === currentId);
  const defaultId = views.data?.defaultViewId ?? null;

  const partText = (part: DroppedPart) => {
    const field =
      part.field === undefined
        ? undefined
        : part.field in module.fields
          ? fieldLabel(t, module, part.field)
          : part.field;
    return t(`kit:views.dropped.${part.part}`, { field });
  };
  const open = (view: SavedView) => {
    setCurrentId(view.id);
    list.apply(view.state);
    if (view.dropped.length > 0) {
      notification.warning({
        key: `view-dropped-${view.id}`,
        message: t("kit:views.droppedTitle", { name: view.name }),
        description: t("kit:views.droppedText", {
          parts: view.dropped.map(partText).join(t("kit:views.separator")),
        }),
      });
    }
  };

  // The administrator's default view, when the list was opened without a state of its own: once,
  // after the render that brought the views (the list's own setters run outside any render).
  useEffect(() => {
    if (opened.current || !views.data) return;
    const { views: found, defaultViewId } = views.data;
    const timer = setTimeout(() => {
      opened.current = true;
      const chosen = found.find((view) => view.id === defaultViewId);
      if (chosen && !ownState) open(chosen);
    });
    return () => clearTimeout(timer);
    // `open` reads the list's setters, which are stable for this purpose.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [views.data, ownState]);

  // A saved view's refusal in the administrator's words, with what its `data` says (a limit, the
  // name in use); any other failure as the console words it everywhere.
  const errorText = (error: unknown) => {
    const code = errorCodeOf(error);
    if (!code?.startsWith("SAVED_VIEW_") || !isApiError(error)) return translateApiError(error, t);
    const data = typeof error.data === "object" && error.data !== null ? error.data : {};
    return t(`errors:codes.${code}`, { ...data, defaultValue: error.message });
  };

  const failed = (title: string) => (error: unknown) =>
    notification.error({
      key: `view-failed-${title}`,
      message: title,
      description: errorText(error),
    });

  // A name in use, or one the server refused, is said under the name; anything else in a toast.
  const underName = (title: string) => (error: unknown) => {
    const code = errorCodeOf(error);
    if (code === "SAVED_VIEW_NAME_TAKEN" || code === "VALIDATION_ERROR") {
      form.setFields([{ name: "name", errors: [errorText(error)] }]);
    } else {
      failed(title)(error);
    }
  };

  const state = () => viewStateOf(module, list);

  const submitDialog = async () => {
    const values = await form.validateFields();
    if (dialog?.kind === "save") {
      change.mutate(
        { kind: "create", name: values.name, shared: values.shared, state: state() },
        {
          onSuccess: (view) => {
            setCurrentId(view?.id);
            setDialog(undefined);
            void message.success(t("kit:views.saved", { name: view?.name }));
          },
          onError: underName(t("kit:views.saveFailed")),
        },
      );
    } else if (dialog?.kind === "rename") {
      change.mutate(
        { kind: "update", id: dialog.view.id, name: values.name },
        {
          onSuccess: () => {
            setDialog(undefined);
            void message.success(t("kit:views.renamed"));
          },
          onError: underName(t("kit:views.renameFailed")),
        },
      );
    }
  };

  const mayRenameOrDelete = (view: SavedView) =>
    view.mine || (view.shared && admin?.isSuperAdmin === true);
  const menu: MenuProps["items"] = current
    ? [
        ...(current.mine
          ? [
              { key: "update", label: t("kit:views.update") },
              {
                key: "share",
                label: current.shared ? t("kit:views.unshare") : t("kit:views.share"),
              },
            ]
          : []),
        ...(mayRenameOrDelete(current)
          ? [
              { key: "rename", label: t("kit:views.rename") },
              { key: "delete", label: t("kit:views.delete"), danger: true },
            ]
          : []),
        defaultId === current.id
          ? { key: "undefault", label: t("kit:views.clearDefault") }
          : { key: "default", label: t("kit:views.makeDefault") },
      ]
    : [];
  const onMenu: MenuProps["onClick"] = ({ key }) => {
    if (!current) return;
    switch (key) {
      case "update":
        change.mutate(
          { kind: "update", id: current.id, state: state() },
          {
            onSuccess: () => void message.success(t("kit:views.updated", { name: current.name })),
            onError: failed(t("kit:views.saveFailed")),
          },
        );
        break;
      case "share":
        change.mutate(
          { kind: "update", id: current.id, shared: !current.shared },
          {
            onSuccess: (view) =>
              void message.success(
                t(view?.shared ? "kit:views.nowShared" : "kit:views.nowPrivate", {
                  name: current.name,
                }),
              ),
            onError: failed(t("kit:views.saveFailed")),
          },
        );
        break;
      case "rename":
        form.setFieldsValue({ name: current.name, shared: current.shared });
        setDialog({ kind: "rename", view: current });
        break;
      case "delete":
        modal.confirm({
          title: t("kit:views.deleteTitle", { name: current.name }),
          content: current.shared ? t("kit:views.deleteShared") : undefined,
          okText: t("kit:views.delete"),
          okButtonProps: { danger: true },
          cancelText: t("kit:views.cancel"),
          onOk: () =>
            change
              .mutateAsync({ kind: "delete", id: current.id })
              .then(() => {
                setCurrentId(undefined);
                void message.success(t("kit:views.deleted", { name: current.name }));
              })
              .catch(failed(t("kit:views.deleteFailed"))),
        });
        break;
      case "default":
      case "undefault":
        change.mutate(
          { kind: "default", id: key === "default" ? current.id : null },
          {
            onSuccess: () =>
              void message.success(
                t(key === "default" ? "kit:views.defaultSet" : "kit:views.defaultCleared", {
                  name: current.name,
                }),
              ),
            onError: failed(t("kit:views.saveFailed")),
          },
        );
        break;
    }
  };

  const optionLabel = (view: SavedView) =>
    [
      view.name,
      view.shared ? t("kit:views.sharedTag") : undefined,
      !view.mine ? t("kit:views.by", { name: view.owner.name }) : undefined,
      view.id === defaultId ? t("kit:views.defaultTag") : undefined,
    ]
      .filter(Boolean)
      .join(" · ");

  return (
    <Flex gap={8} wrap align="center" role="group" aria-label={t("kit:views.label")}>
      <Select<number>
        aria-label={t("kit:views.pick")}
        placeholder={t("kit:views.pick")}
        value={current?.id}
        loading={views.isLoading}
        onChange={(id) => {
          const view = all.find((candidate) => candidate.id === id);
          if (view) open(view);
        }}
        options={all.map((view) => ({ value: view.id, label: optionLabel(view) }))}
        notFoundContent={views.isError ? t("kit:views.loadFailed") : t("kit:views.none")}
        style={{ minWidth: 200, maxWidth: "100%" }}
        popupMatchSelectWidth={false}
      />
      <Button
        icon={<SaveOutlined aria-hidden />}
        onClick={() => {
          form.setFieldsValue({ name: "", shared: false });
          setDialog({ kind: "save" });
        }}
      >
        {t("kit:views.saveAs")}
      </Button>
      {current && (
        <Dropdown menu={{ items: menu, onClick: onMenu }} trigger={["click"]}>
          <Button aria-label={t("kit:views.manage", { name: current.name })}>
            {t("kit:views.manageShort")} <DownOutlined aria-hidden />
          </Button>
        </Dropdown>
      )}
      <Modal
        open={dialog !== undefined}
        title={dialog?.kind === "rename" ? t("kit:views.renameTitle") : t("kit:views.saveTitle")}
        okText={dialog?.kind === "rename" ? t("kit:views.rename") : t("kit:views.save")}
        cancelText={t("kit:views.cancel")}
        confirmLoading={change.isPending}
        onOk={() => void submitDialog()}
        onCancel={() => setDialog(undefined)}
        destroyOnHidden
      >
        <Form form={form} layout="vertical" onFinish={() => void submitDialog()}>
          <Form.Item
            name="name"
            label={t("kit:views.name")}
            rules={[
              { required: true, whitespace: true, message: t("kit:views.nameRequired") },
              {
                max: SAVED_VIEW_LIMITS.nameMax,
                message: t("kit:views.nameTooLong", { max: SAVED_VIEW_LIMITS.nameMax }),
              },
              {
                // eslint-disable-next-line no-control-regex
                pattern: /^[^\u0000-\u001F\u007F-\u009F\u2028\u2029\u202A-\u202E\u2066-\u2069]*$/,
                message: t("kit:views.nameInvalid"),
              },
            ]}
          >
            <Input maxLength={SAVED_VIEW_LIMITS.nameMax} autoFocus />
          </Form.Item>
          {dialog?.kind === "save" && (
            <Form.Item name="shared" valuePropName="checked">
              <Checkbox>{t("kit:views.sharedLabel")}</Checkbox>
            </Form.Item>
          )}
        </Form>
      </Modal>
    </Flex>
  );
}

/** What the list's table hook gives the toolbar (Refine's useTable and the filters' form). */
export interface ListTableState {
  filters: CrudFilter[];
  sorters: CrudSort[];
  pageSize: number;
  setFilters: (filters: CrudFilter[], behavior: "replace") => void;
  setSorters: (sorters: CrudSort[]) => void;
  setPageSize: (size: number) => void;
  setCurrentPage: (page: number) => void;
  /** The filter controls' form, set to what a view filters by. */
  form?: { setFieldsValue: (values: never) => void };
}

/**
 * The toolbar above a module's list: its saved views and its columns (which to show, how wide).
 * ModuleList draws it; `searchOf` turns a view's filters into the filter controls' values.
 */
export function ListViewsBar({
  module,
  table,
  columns,
  onColumns,
  searchOf,
}: {
  module: ModuleDecl;
  table: ListTableState;
  columns: ColumnState;
  onColumns: (next: ColumnState) => void;
  searchOf: (filters: CrudFilter[]) => unknown;
}) {
  const apply = (state: ViewState) => {
    const filters = state.filters as CrudFilter[];
    table.setFilters(filters, "replace");
    table.form?.setFieldsValue(searchOf(filters) as never);
    table.setSorters(state.sorters);
    table.setPageSize(state.pageSize);
    table.setCurrentPage(1);
    onColumns({ columns: state.columns, widths: state.widths });
  };
  return (
    <Flex gap={8} wrap align="center" justify="space-between" style={{ marginBottom: 12 }}>
      <SavedViews
        module={module}
        list={{
          filters: table.filters,
          sorters: table.sorters,
          pageSize: table.pageSize,
          columns,
          apply,
        }}
      />
      <ColumnSettings module={module} state={columns} onChange={onColumns} />
    </Flex>
  );
}
