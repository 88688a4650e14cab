import { Skeleton } from "antd";
import { lazy, Suspense } from "react";

import type { RichTextProps } from "./editor";

/** The editor's chunk (Tiptap and ProseMirror), fetched only by screens that show one. */
const Editor = lazy(() => import("./editor"));

/** A rich-text editor, or a stored body shown read-only (see ./editor.tsx). */
export function RichText(props: RichTextProps) {
  return (
    <Suspense fallback={<Skeleton active paragraph={{ rows: props.readOnly ? 2 : 6 }} />}>
      <Editor {...props} />
    </Suspense>
  );
}

export type { RichTextProps };
