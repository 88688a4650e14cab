/**
 * The rich-text editor of help articles and announcements, on Tiptap (ProseMirror): headings,
 * lists, links, images (uploaded to the server) and tables. It is its own lazy chunk (see
 * ./index.tsx): the console's first screen never downloads it.
 *
 * The same component, read-only, shows stored bodies: the HTML is parsed into the editor's
 * schema (only the nodes and marks above, their known attributes), never put into the page as
 * it is, so the console has one way of showing stored HTML and no second, unsafe one.
 */
import {
  BoldOutlined,
  DeleteOutlined,
  InsertRowBelowOutlined,
  InsertRowRightOutlined,
  ItalicOutlined,
  LinkOutlined,
  OrderedListOutlined,
  PictureOutlined,
  RedoOutlined,
  TableOutlined,
  UndoOutlined,
  UnorderedListOutlined,
} from "@ant-design/icons";
import Image from "@tiptap/extension-image";
import { TableKit } from "@tiptap/extension-table";
import { EditorContent, useEditor, useEditorState, type Editor } from "@tiptap/react";
import StarterKit from "@tiptap/starter-kit";
import { Button, Flex, Input, Modal, Tooltip, message, theme, type GlobalToken } from "antd";
import { useEffect, useRef, useState, type CSSProperties, type ReactNode } from "react";
import { useTranslation } from "react-i18next";

import { http } from "../../../providers/http";
import { toApiError } from "../../../providers/errors";
import {
  IMAGE_FIELD,
  IMAGE_MAX_BYTES,
  IMAGE_TYPES,
  type ContentImage,
} from "../../../shared/modules/content";
import "./rich-text.css";

export interface RichTextProps {
  value?: string;
  onChange?: (html: string) => void;
  /** Where images are uploaded: `/api/<collection>/images` (the module's permission). */
  collection?: string;
  readOnly?: boolean;
  /** The accessible name of the writing area. */
  label?: string;
  id?: string;
  /** The language the text is written in (`lang` of the writing area). */
  lang?: string;
}

const LINK_SCHEMES = /^(https?:\/\/|mailto:|tel:)/i;

function extensions() {
  return [
    StarterKit.configure({
      heading: { levels: [2, 3, 4] },
      link: {
        openOnClick: false,
        autolink: true,
        protocols: ["mailto", "tel"],
        isAllowedUri: (url) => LINK_SCHEMES.test(url),
        HTMLAttributes: { target: "_blank", rel: "noopener noreferrer nofollow" },
      },
    }),
    Image.configure({ inline: false }),
    TableKit.configure({ table: { resizable: false } }),
  ];
}

/**
 * The colours of ./rich-text.css, from the active antd theme (light or dark): the editor is drawn
 * by ProseMirror, not by antd, so its box, text, table cells and links take the theme's tokens
 * through these custom properties instead of fixed light colours.
 */
const themeColours = (token: GlobalToken) =>
  ({
    "--rich-text-text": token.colorText,
    "--rich-text-background": token.colorBgContainer,
    "--rich-text-border": token.colorBorder,
    "--rich-text-split": token.colorSplit,
    "--rich-text-focus": token.colorPrimary,
    "--rich-text-header": token.colorFillAlter,
    "--rich-text-selected": token.controlItemBgActive,
    "--rich-text-link": token.colorLink,
    "--rich-text-link-hover": token.colorLinkHover,
  }) as CSSProperties;

/** An empty document as the editor writes it is no body. */
const emptyToBlank = (editor: Editor) => (editor.isEmpty ? "" : editor.getHTML());

export default function RichTextEditor({
  value,
  onChange,
  collection,
  readOnly = false,
  label,
  id,
  lang,
}: RichTextProps) {
  const { token } = theme.useToken();
  const editor = useEditor({
    extensions: extensions(),
    content: value ?? "",
    editable: !readOnly,
    immediatelyRender: true,
    editorProps: {
      attributes: {
        class: "rich-text-content",
        ...(label ? { "aria-label": label } : {}),
        ...(id ? { id } : {}),
        ...(lang ? { lang } : {}),
        ...(readOnly ? {} : { "aria-multiline": "true", role: "textbox" }),
      },
    },
    onUpdate: ({ editor: current }) => onChange?.(emptyToBlank(current)),
  });
  // A value set from outside (the record loaded, the form reset) replaces the document.
  useEffect(() => {
    if (editor && !editor.isDestroyed && (value ?? "") !== emptyToBlank(editor)) {
      editor.commands.setContent(value ?? "", { emitUpdate: false });
    }
  }, [editor, value]);

  if (readOnly) {
    return (
      <EditorContent
        editor={editor}
        className="rich-text rich-text-view"
        style={themeColours(token)}
      />
    );
  }
  return (
    <div className="rich-text rich-text-editing" style={themeColours(token)}>
      <Toolbar editor={editor} collection={collection} />
      <EditorContent editor={editor} />
    </div>
  );
}

function ToolButton({
  title,
  icon,
  active,
  disabled,
  onClick,
}: {
  title: string;
  icon: ReactNode;
  active?: boolean;
  disabled?: boolean;
  onClick: () => void;
}) {
  return (
    <Tooltip title={title}>
      <Button
        size="small"
        type={active ? "primary" : "text"}
        aria-label={title}
        aria-pressed={active}
        icon={icon}
        disabled={disabled}
        onClick={onClick}
      />
    </Tooltip>
  );
}

function Toolbar({ editor, collection }: { editor: Editor; collection?: string }) {
  const { t } = useTranslation("kit");
  const [linking, setLinking] = useState<string>();
  const [uploading, setUploading] = useState(false);
  const files = useRef<HTMLInputElement>(null);
  const state = useEditorState({
    editor,
    selector: ({ editor: e }) => ({
      h2: e.isActive("heading", { level: 2 }),
      h3: e.isActive("heading", { level: 3 }),
      bold: e.isActive("bold"),
      italic: e.isActive("italic"),
      bullet: e.isActive("bulletList"),
      ordered: e.isActive("orderedList"),
      link: e.isActive("link"),
      table: e.isActive("table"),
      undo: e.can().undo(),
      redo: e.can().redo(),
    }),
  });
  const chain = () => editor.chain().focus();

  const upload = async (file: File) => {
    if (!IMAGE_TYPES.includes(file.type as (typeof IMAGE_TYPES)[number])) {
      void message.error(t("richText.notImage"));
      return;
    }
    if (file.size > IMAGE_MAX_BYTES) {
      void message.error(t("richText.imageTooLarge", { mb: IMAGE_MAX_BYTES / 1024 / 1024 }));
      return;
    }
    const form = new FormData();
    form.append(IMAGE_FIELD, file);
    setUploading(true);
    try {
      const { data } = await http.post<ContentImage>(`/api/${collection}/images`, form);
      chain()
        .setImage({ src: data.src, alt: file.name.replace(/\.[^.]*$/, "") })
        .run();
    } catch (error) {
      const code = toApiError(error).code;
      void message.error(
        code === "IMAGE_TOO_LARGE"
          ? t("richText.imageTooLarge", { mb: IMAGE_MAX_BYTES / 1024 / 1024 })
          : code === "INVALID_IMAGE"
            ? t("richText.notImage")
            : t("richText.uploadFailed"),
      );
    } finally {
      setUploading(false);
    }
  };

  const saveLink = () => {
    const href = (linking ?? "").trim();
    if (href === "") chain().extendMarkRange("link").unsetLink().run();
    else if (LINK_SCHEMES.test(href)) {
      chain().extendMarkRange("link").setLink({ href }).run();
      // The caret after the link, as after typing it: what is typed next (or an image) goes on
      // from there instead of replacing the linked words, whenever the dialog's close ends.
      editor.commands.setTextSelection(editor.state.selection.to);
    } else {
      void message.error(t("richText.badLink"));
      return;
    }
    setLinking(undefined);
  };

  return (
    <Flex
      className="rich-text-toolbar"
      wrap
      gap={2}
      role="toolbar"
      aria-label={t("richText.toolbar")}
    >
      <ToolButton
        title={t("richText.heading2")}
        icon={<span aria-hidden>H2</span>}
        active={state.h2}
        onClick={() => chain().toggleHeading({ level: 2 }).run()}
      />
      <ToolButton
        title={t("richText.heading3")}
        icon={<span aria-hidden>H3</span>}
        active={state.h3}
        onClick={() => chain().toggleHeading({ level: 3 }).run()}
      />
      <ToolButton
        title={t("richText.bold")}
        icon={<BoldOutlined aria-hidden />}
        active={state.bold}
        onClick={() => chain().toggleBold().run()}
      />
      <ToolButton
        title={t("richText.italic")}
        icon={<ItalicOutlined aria-hidden />}
        active={state.italic}
        onClick={() => chain().toggleItalic().run()}
      />
      <ToolButton
        title={t("richText.bulletList")}
        icon={<UnorderedListOutlined aria-hidden />}
        active={state.bullet}
        onClick={() => chain().toggleBulletList().run()}
      />
      <ToolButton
        title={t("richText.orderedList")}
        icon={<OrderedListOutlined aria-hidden />}
        active={state.ordered}
        onClick={() => chain().toggleOrderedList().run()}
      />
      <ToolButton
        title={t("richText.link")}
        icon={<LinkOutlined aria-hidden />}
        active={state.link}
        onClick={() => setLinking(String(editor.getAttributes("link").href ?? ""))}
      />
      {collection && (
        <ToolButton
          title={t("richText.image")}
          icon={<PictureOutlined aria-hidden />}
          disabled={uploading}
          onClick={() => files.current?.click()}
        />
      )}
      <ToolButton
        title={t("richText.table")}
        icon={<TableOutlined aria-hidden />}
        onClick={() => chain().insertTable({ rows: 3, cols: 3, withHeaderRow: true }).run()}
      />
      <ToolButton
        title={t("richText.addRow")}
        icon={<InsertRowBelowOutlined aria-hidden />}
        disabled={!state.table}
        onClick={() => chain().addRowAfter().run()}
      />
      <ToolButton
        title={t("richText.addColumn")}
        icon={<InsertRowRightOutlined aria-hidden />}
        disabled={!state.table}
        onClick={() => chain().addColumnAfter().run()}
      />
      <ToolButton
        title={t("richText.deleteTable")}
        icon={<DeleteOutlined aria-hidden />}
        disabled={!state.table}
        onClick={() => chain().deleteTable().run()}
      />
      <ToolButton
        title={t("richText.undo")}
        icon={<UndoOutlined aria-hidden />}
        disabled={!state.undo}
        onClick={() => chain().undo().run()}
      />
      <ToolButton
        title={t("richText.redo")}
        icon={<RedoOutlined aria-hidden />}
        disabled={!state.redo}
        onClick={() => chain().redo().run()}
      />
      <input
        ref={files}
        type="file"
        accept={IMAGE_TYPES.join(",")}
        style={{ display: "none" }}
        aria-label={t("richText.image")}
        data-testid="rich-text-image-input"
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = "";
          if (file) void upload(file);
        }}
      />
      <Modal
        open={linking !== undefined}
        title={t("richText.link")}
        okText={t("richText.linkSave")}
        cancelText={t("richText.linkCancel")}
        onOk={saveLink}
        onCancel={() => setLinking(undefined)}
        destroyOnHidden
        // Back to the text, not to the toolbar's Link button: typing goes on where the link is.
        focusTriggerAfterClose={false}
        afterClose={() => editor.commands.focus()}
      >
        <Input
          autoFocus
          aria-label={t("richText.linkAddress")}
          placeholder="https://"
          value={linking}
          onChange={(event) => setLinking(event.target.value)}
          onPressEnter={saveLink}
        />
      </Modal>
    </Flex>
  );
}
