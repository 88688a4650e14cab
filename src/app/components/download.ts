import { http } from "../../providers/http";
import { toApiPath } from "../../providers/data";

/**
 * Documents need the session's Authorization header, so they are fetched through the shared
 * client as a blob and handed to the browser as a download, never linked to directly.
 */
export async function downloadFile(downloadPath: string, fileName: string): Promise<void> {
  const response = await http.get<Blob>(toApiPath(downloadPath), { responseType: "blob" });
  const url = URL.createObjectURL(response.data);
  try {
    const link = document.createElement("a");
    link.href = url;
    link.download = fileName;
    link.rel = "noopener";
    document.body.append(link);
    link.click();
    link.remove();
  } finally {
    setTimeout(() => URL.revokeObjectURL(url), 0);
  }
}
