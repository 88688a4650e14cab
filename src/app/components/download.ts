import { http } from "../../providers/http";
import { toApiPath } from "../../providers/data";

/**
 * How long a handed-over file's object URL stays alive. Firefox and Safari read the blob after
 * the click returns, on their own schedule: revoking it at once (or after a zero timeout) can
 * lose the download (Mozilla bug 1282407), so it is freed well after any download has started.
 */
const OBJECT_URL_LIFETIME_MS = 60_000;

/** Hands the browser a file to save, as a click on a hidden download link. */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  link.rel = "noopener";
  link.style.display = "none";
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), OBJECT_URL_LIFETIME_MS);
}

/**
 * Documents need the session's Authorization header, so they are fetched through the shared
 * client as a blob and handed to the browser as a download, never linked to directly.
 */
export async function downloadFile(downloadPath: string, fileName: string): Promise<void> {
  const response = await http.get<Blob>(toApiPath(downloadPath), { responseType: "blob" });
  saveBlob(response.data, fileName);
}
