/**
 * The saved views of a list (docs/saved-views.md): read with React Query, changed through the
 * API's `/api/saved-views/{module}` routes; every change reads the list of views again.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";

import type { SavedView, SavedViewList, ViewState } from "../shared/saved-views";
import { dataProvider } from "./data";

const pathOf = (module: string) => `/api/saved-views/${encodeURIComponent(module)}`;
export const savedViewsKey = (module: string) => ["saved-views", module] as const;

/** The views of `module`'s list the administrator may open, and their default. */
export function useSavedViews(module: string, enabled = true) {
  return useQuery({
    queryKey: savedViewsKey(module),
    enabled,
    queryFn: async ({ signal }) => {
      const { data } = await dataProvider.custom!<SavedViewList>({
        url: pathOf(module),
        method: "get",
        meta: { signal },
      });
      return data;
    },
  });
}

export type ViewChange =
  | { kind: "create"; name: string; shared: boolean; state: ViewState }
  | { kind: "update"; id: number; name?: string; shared?: boolean; state?: ViewState }
  | { kind: "delete"; id: number }
  | { kind: "default"; id: number | null };

/** One change to the views of `module` (save as, update, rename, share, delete, default). */
export function useSavedViewChange(module: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (change: ViewChange): Promise<SavedView | null> => {
      const base = pathOf(module);
      switch (change.kind) {
        case "create": {
          const { kind: _, ...payload } = change;
          const { data } = await dataProvider.custom!<SavedView>({
            url: base,
            method: "post",
            payload,
          });
          return data;
        }
        case "update": {
          const { kind: _, id, ...payload } = change;
          const { data } = await dataProvider.custom!<SavedView>({
            url: `${base}/${id}`,
            method: "patch",
            payload,
          });
          return data;
        }
        case "delete":
          await dataProvider.custom!({ url: `${base}/${change.id}`, method: "delete" });
          return null;
        case "default":
          await dataProvider.custom!({
            url: `${base}/default`,
            method: "put",
            payload: { viewId: change.id },
          });
          return null;
      }
    },
    onSettled: () => client.invalidateQueries({ queryKey: savedViewsKey(module) }),
  });
}
