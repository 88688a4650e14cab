import {
  DEFAULT_LANGUAGE,
  isLanguage,
  LANGUAGE_STORAGE_KEY,
  type Language,
} from "../shared/language";
import { apiErrorFromResponse, apiErrorWithoutAnswer, isApiError } from "./api-error";
import { IDLE_HEADER, idleSeconds, noteRequest } from "./idle";
import { getToken } from "./session";
import { confirmIdentity, STEP_UP_REQUIRED, stepUpMethodsOf } from "./step-up";

/** The API base every path is relative to (docs/api.md): configured, else this origin's `/v1`. */
export const API_BASE: string = (import.meta.env.VITE_API_URL as string | undefined) ?? "/v1";

/** docs/backoffice.md: a request may take up to 30 minutes (large exports). */
export const REQUEST_TIMEOUT_MS = 1_800_000;

/** The language the API answers in: the stored choice when it is one we speak, else en-US. */
export function currentLanguage(): Language {
  let stored: string | null = null;
  try {
    stored = localStorage.getItem(LANGUAGE_STORAGE_KEY);
  } catch {
    // Storage disabled: speak the default.
  }
  return isLanguage(stored) ? stored : DEFAULT_LANGUAGE;
}

export type HttpMethod = "get" | "delete" | "head" | "options" | "post" | "put" | "patch";

/** How much of a request body has been sent; `total` when the browser knows it. */
export interface UploadProgress {
  loaded: number;
  total?: number;
}

export interface RequestOptions {
  /** Query parameters, added to the URL (see `queryString`). */
  params?: Record<string, unknown>;
  /** Extra headers; Authorization and Accept-Language are always the session's. */
  headers?: Record<string, string | undefined>;
  signal?: AbortSignal;
  /** `blob`: a successful body is handed over as a Blob (downloads) instead of decoded. */
  responseType?: "blob";
  timeout?: number;
  /** Reports the body's upload; the request then goes by XMLHttpRequest (fetch cannot tell). */
  onUploadProgress?: (progress: UploadProgress) => void;
}

export interface HttpRequest extends RequestOptions {
  /** Relative to the API base, unless absolute. */
  url: string;
  method?: HttpMethod;
  /** A FormData, Blob, URLSearchParams or string is sent as it is; anything else as JSON. */
  data?: unknown;
}

export interface HttpResponse<T> {
  data: T;
  status: number;
  headers: Headers;
}

/** What came back, before it is judged: the body as text, or as a Blob for a download. */
interface Answer {
  status: number;
  headers: Headers;
  body: string | Blob;
}

const ACCEPT = "application/json, text/plain, */*";

/** URI-encoded, with `:`, `$`, `,` kept and spaces as `+`: the query string the API always got. */
const encode = (text: string) =>
  encodeURIComponent(text)
    .replace(/%3A/gi, ":")
    .replace(/%24/g, "$")
    .replace(/%2C/gi, ",")
    .replace(/%20/g, "+");

const isNested = (value: unknown): value is object =>
  Array.isArray(value) ||
  (typeof value === "object" &&
    value !== null &&
    Object.getPrototypeOf(value) === Object.prototype);

const scalar = (value: unknown) => (value instanceof Date ? value.toISOString() : String(value));

function addPairs(pairs: string[], params: object, prefix?: string): void {
  const add = (name: string, value: unknown) =>
    pairs.push(`${encode(name)}=${encode(scalar(value))}`);
  for (const [key, value] of Object.entries(params) as [string, unknown][]) {
    if (value === undefined || value === null) continue;
    const name = prefix === undefined ? key : `${prefix}[${key}]`;
    if (prefix === undefined && Array.isArray(value) && !value.some(isNested)) {
      for (const item of value as unknown[]) {
        if (item !== undefined && item !== null) add(`${name}[]`, item);
      }
    } else if (isNested(value)) {
      addPairs(pairs, value, name);
    } else {
      add(name, value);
    }
  }
}

/**
 * Query parameters as the console has always written them (axios's rules), so the server reads
 * the same values: null and undefined left out, a flat array as repeated `name[]`, a nested
 * object as `name[key]`, a Date as ISO-8601.
 */
export function queryString(params: Record<string, unknown>): string {
  const pairs: string[] = [];
  addPairs(pairs, params);
  return pairs.join("&");
}

function urlOf({ url, params }: HttpRequest): string {
  const absolute = /^([a-z][a-z\d+\-.]*:)?\/\//i.test(url);
  let full = absolute ? url : `${API_BASE.replace(/\/+$/, "")}/${url.replace(/^\/+/, "")}`;
  const query = params ? queryString(params) : "";
  if (query !== "") full += (full.includes("?") ? "&" : "?") + query;
  // Resolved here rather than by the browser, so a relative base works wherever fetch runs.
  return new URL(full, window.location.href).href;
}

function headersOf(request: HttpRequest): Headers {
  const headers = new Headers({ Accept: ACCEPT });
  for (const [name, value] of Object.entries(request.headers ?? {})) {
    if (value !== undefined) headers.set(name, value);
  }
  // Read per request, not once: login, logout and the language switcher change them at run time.
  const token = getToken();
  if (token) headers.set("Authorization", token);
  else headers.delete("Authorization");
  headers.set("Accept-Language", currentLanguage());
  // Whether the administrator is still there: the console's own polling is not use.
  headers.set(IDLE_HEADER, String(idleSeconds()));
  return headers;
}

function bodyOf(data: unknown, method: string, headers: Headers): BodyInit | undefined {
  if (data === undefined || data === null || method === "get" || method === "head") return;
  if (
    typeof data === "string" ||
    data instanceof FormData ||
    data instanceof Blob ||
    data instanceof URLSearchParams ||
    data instanceof ArrayBuffer ||
    ArrayBuffer.isView(data)
  ) {
    return data as BodyInit;
  }
  if (!headers.has("Content-Type")) headers.set("Content-Type", "application/json");
  return JSON.stringify(data);
}

async function viaFetch(
  url: string,
  init: RequestInit,
  responseType: RequestOptions["responseType"],
): Promise<Answer> {
  // A Request first: the platform's (or the test environment's) own FormData crosses intact.
  const response = await fetch(new Request(url, init));
  const download = responseType === "blob" && response.ok;
  const body = download ? await response.blob() : await response.text();
  return { status: response.status, headers: response.headers, body };
}

function responseHeaders(xhr: XMLHttpRequest): Headers {
  const headers = new Headers();
  for (const line of xhr.getAllResponseHeaders().split(/\r?\n/)) {
    const colon = line.indexOf(":");
    if (colon > 0) headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
  }
  return headers;
}

/** XMLHttpRequest, only for a request whose upload progress someone shows. */
function viaXhr(
  url: string,
  init: RequestInit,
  options: RequestOptions,
  onUploadProgress: NonNullable<RequestOptions["onUploadProgress"]>,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(init.method ?? "GET", url);
    xhr.responseType = options.responseType === "blob" ? "blob" : "text";
    new Headers(init.headers).forEach((value, name) => xhr.setRequestHeader(name, value));
    xhr.upload.addEventListener("progress", (event) =>
      onUploadProgress({
        loaded: event.loaded,
        total: event.lengthComputable ? event.total : undefined,
      }),
    );
    xhr.addEventListener("load", () =>
      resolve({
        status: xhr.status,
        headers: responseHeaders(xhr),
        body: xhr.response as string | Blob,
      }),
    );
    for (const failure of ["error", "timeout", "abort"]) {
      xhr.addEventListener(failure, () => reject(new Error(`XMLHttpRequest ${failure}`)));
    }
    // Settled at once, as fetch is, rather than waiting for the request's own abort event.
    const abandon = () => {
      reject(new Error("XMLHttpRequest abandoned"));
      xhr.abort();
    };
    if (init.signal?.aborted) return abandon();
    init.signal?.addEventListener("abort", abandon, { once: true });
    xhr.send((init.body ?? null) as XMLHttpRequestBodyInit | null);
  });
}

/** Told of every answer's headers (the live stream's resume point: src/providers/live.ts). */
const answerWatchers = new Set<(headers: Headers) => void>();

/** Calls `watcher` with the headers of every answer from now on; returns how to stop. */
export function watchAnswers(watcher: (headers: Headers) => void): () => void {
  answerWatchers.add(watcher);
  return () => answerWatchers.delete(watcher);
}

/**
 * An answer as the caller gets it: a body is JSON when it parses (whatever its type says), else
 * text; an error status, or a 2xx that is an HTML page (a proxy or the SPA fallback answering for
 * a wrong API URL) or JSON that failed to parse, rejects as an ApiError.
 */
async function settle<T>(answer: Answer, method: string): Promise<HttpResponse<T>> {
  const { status, headers, body } = answer;
  const ok = status >= 200 && status < 300;
  if (ok && typeof body !== "string") return { data: body as T, status, headers };
  const text = typeof body === "string" ? body : await body.text();
  let data: unknown = text === "" ? undefined : text;
  try {
    data = JSON.parse(text);
  } catch {
    // Not JSON: the text itself.
  }
  const contentType = headers.get("content-type") ?? "";
  if (!ok) throw apiErrorFromResponse(status, data, contentType, method);
  if (typeof data === "string" && data.trim() !== "") {
    const looksStructured = /^\s*[<{[]/.test(data);
    if (/html/i.test(contentType) || (/json/i.test(contentType) && looksStructured)) {
      throw apiErrorFromResponse(status, data, contentType, method);
    }
  }
  return { data: data as T, status, headers };
}

/**
 * Sends one request to the API: session headers, the timeout, and every failure as an ApiError.
 * The caller's signal aborting is `cancelled`; no answer in time or at all is `network`.
 */
async function send<T>(config: HttpRequest): Promise<HttpResponse<T>> {
  noteRequest();
  const method = config.method ?? "get";
  const headers = headersOf(config);
  const body = bodyOf(config.data, method, headers);
  const controller = new AbortController();
  const { signal } = config;
  const abort = () => controller.abort();
  if (signal?.aborted) abort();
  else signal?.addEventListener("abort", abort, { once: true });
  const timer = setTimeout(abort, config.timeout ?? REQUEST_TIMEOUT_MS);
  const init: RequestInit = {
    method: method.toUpperCase(),
    headers,
    body,
    signal: controller.signal,
  };
  let answer: Answer;
  try {
    const url = urlOf(config);
    answer = config.onUploadProgress
      ? await viaXhr(url, init, config, config.onUploadProgress)
      : await viaFetch(url, init, config.responseType);
  } catch {
    // No answer: network down, DNS failure, CORS refusal, the timeout, or the caller gave up.
    throw apiErrorWithoutAnswer(signal?.aborted ? "cancelled" : "network", method);
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener("abort", abort);
  }
  for (const watcher of answerWatchers) watcher(answer.headers);
  return settle<T>(answer, method);
}

/**
 * One request as its caller sees it: a sensitive one refused for want of a recent proof
 * (403 STEP_UP_REQUIRED) waits for the step-up dialog and, once proven, is sent again, its answer
 * handed over as if nothing happened; cancelled, the caller gets the refusal.
 */
async function request<T = unknown>(config: HttpRequest): Promise<HttpResponse<T>> {
  try {
    return await send<T>(config);
  } catch (error) {
    const stepUp = isApiError(error) && error.statusCode === 403 && error.code === STEP_UP_REQUIRED;
    if (stepUp && (await confirmIdentity(stepUpMethodsOf(error.data)))) return send<T>(config);
    throw error;
  }
}

type WithoutBody = <T = unknown>(
  url: string,
  options?: RequestOptions & { data?: unknown },
) => Promise<HttpResponse<T>>;
type WithBody = <T = unknown>(
  url: string,
  data?: unknown,
  options?: RequestOptions,
) => Promise<HttpResponse<T>>;

const withoutBody =
  (method: HttpMethod): WithoutBody =>
  (url, options) =>
    request({ ...options, url, method });
const withBody =
  (method: HttpMethod): WithBody =>
  (url, data, options) =>
    request({ ...options, url, method, data });

/** The console's one API client (fetch; XMLHttpRequest only to report an upload's progress). */
export const http = {
  request,
  get: withoutBody("get"),
  delete: withoutBody("delete"),
  post: withBody("post"),
  put: withBody("put"),
  patch: withBody("patch"),
};
