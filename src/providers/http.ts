import axios, { type AxiosResponse, type InternalAxiosRequestConfig } from "axios";

import { apiErrorFromAxios, apiErrorFromResponse } from "./api-error";
import { getToken } from "./session";

/** The API base every path is relative to (api.md): configured, else this origin's `/v1`. */
export const API_BASE: string = (import.meta.env.VITE_API_URL as string | undefined) ?? "/v1";

/** backoffice.md: a request may take up to 30 minutes (large exports). */
export const REQUEST_TIMEOUT_MS = 1_800_000;

export const LANGUAGE_STORAGE_KEY = "language";
const LANGUAGES = ["en-US", "cn-ZH"] as const;
export type Language = (typeof LANGUAGES)[number];

/** The language the API answers in: the stored choice when it is one we speak, else en-US. */
export function currentLanguage(): Language {
  let stored: string | null = null;
  try {
    stored = localStorage.getItem(LANGUAGE_STORAGE_KEY);
  } catch {
    // Storage disabled: speak the default.
  }
  return LANGUAGES.find((l) => l === stored) ?? "en-US";
}

function withSessionHeaders(config: InternalAxiosRequestConfig): InternalAxiosRequestConfig {
  // Read per request, not once: login, logout and the language switcher change them at run time.
  const token = getToken();
  if (token) config.headers.set("Authorization", token);
  else config.headers.delete("Authorization");
  config.headers.set("Accept-Language", currentLanguage());
  return config;
}

function contentTypeOf(response: AxiosResponse): string {
  const value: unknown = response.headers["content-type"];
  return typeof value === "string" ? value : "";
}

/**
 * A 2xx whose body is an HTML page (a proxy or the SPA fallback answering for a wrong API URL) or
 * JSON that failed to parse is no answer at all; reject it rather than hand pages a string.
 */
function rejectUnreadableSuccess(response: AxiosResponse): AxiosResponse {
  const { data } = response;
  if (typeof data !== "string" || data.trim() === "") return response;
  const contentType = contentTypeOf(response);
  const looksStructured = /^\s*[<{[]/.test(data);
  if (/html/i.test(contentType) || (/json/i.test(contentType) && looksStructured)) {
    throw apiErrorFromResponse(
      response.status,
      data,
      contentType,
      response.config.method?.toLowerCase(),
    );
  }
  return response;
}

/** The one axios instance of the console: base URL, session headers, timeout, error normaliser. */
export const http = axios.create({ baseURL: API_BASE, timeout: REQUEST_TIMEOUT_MS });

http.interceptors.request.use(withSessionHeaders);
http.interceptors.response.use(rejectUnreadableSuccess, (error: unknown) =>
  Promise.reject(apiErrorFromAxios(error)),
);
