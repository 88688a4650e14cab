/**
 * A modal dialog shell: labelled, focus moves in on open, Tab and Shift+Tab stay inside (focus
 * sentinels, which also catch focus leaving the reCAPTCHA iframe, where key events are out of
 * reach), Escape closes. The page behind is made `inert` by its owner.
 */
import { useEffect, useRef, type ReactNode } from "react";
import { createPortal } from "react-dom";
import "./dialog.css";

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), iframe, [tabindex]:not([tabindex="-1"])';

interface ModalProps {
  titleId: string;
  onClose: () => void;
  children: ReactNode;
}

export function Modal({ titleId, onClose, children }: ModalProps) {
  const panel = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const first = panel.current?.querySelector<HTMLElement>("input, button");
    first?.focus();
  }, []);

  const focusEdge = (edge: "first" | "last") => {
    const items = [...(panel.current?.querySelectorAll<HTMLElement>(FOCUSABLE) ?? [])];
    (edge === "first" ? items[0] : items[items.length - 1])?.focus();
  };

  return createPortal(
    <div className="calc-backdrop">
      <span tabIndex={0} className="calc-sentinel" onFocus={() => focusEdge("last")} />
      <div
        ref={panel}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        className="calc-dialog"
        onKeyDown={(event) => {
          if (event.key === "Escape") {
            event.stopPropagation();
            onClose();
          }
        }}
      >
        {children}
      </div>
      <span tabIndex={0} className="calc-sentinel" onFocus={() => focusEdge("first")} />
    </div>,
    document.body,
  );
}
