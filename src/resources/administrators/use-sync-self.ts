import { useGetIdentity, useInvalidateAuthStore } from "@refinedev/core";
import { useCallback } from "react";
import type { AdminDto } from "../../providers/api-types";
import { setCurrentAdmin } from "../../providers/current-admin";

/**
 * After a change to an administrator: when it was the signed-in one, their name in the header,
 * their menu and their access follow at once rather than at the next login.
 */
export function useSyncSelf(): (updated: AdminDto) => void {
  const { data: me } = useGetIdentity<AdminDto>();
  const invalidateAuthStore = useInvalidateAuthStore();
  return useCallback(
    (updated: AdminDto) => {
      if (me?.id !== updated.id) return;
      setCurrentAdmin(updated);
      void invalidateAuthStore();
    },
    [me?.id, invalidateAuthStore],
  );
}
