// The operators' console calls (server/routes/admin.ts). Each takes the operator's session token: the console
// keeps its own session (src/features/admin), never the viewer's, and nothing here adds a guest id.
import * as v from 'valibot';
import {
  type AccountDetail,
  type AuditQuery,
  accountDetailSchema,
  accountListSchema,
  auditListSchema,
  type CreateOperatorInput,
  createOperatorResponseSchema,
  type DismissReportsInput,
  type DocumentKind,
  dashboardSchema,
  type OperatorRole,
  type OperatorSetupInput,
  type OperatorSignInInput,
  operatorListSchema,
  operatorSchema,
  operatorSessionSchema,
  operatorSetupResponseSchema,
  operatorSetupStartResponseSchema,
  type RejectVerificationInput,
  type RejectVideoInput,
  reportListSchema,
  reviewListSchema,
  type SuspendInput,
  type TakeDownInput,
  verificationListSchema,
} from '../contract/admin';
import { errorResponseSchema } from '../contract/common';
import { networkMessage, serverMessages } from '../contract/common-messages';
import { ApiError } from './http';

const done = v.object({ message: v.string() });

/**
 * The console's own fetch: the operator's token or none, never the viewer's identity (src/api/http.ts adds
 * that to every call). Kept apart so that the viewer's first download carries none of the console.
 */
async function adminFetch<S extends v.GenericSchema>(
  path: string,
  { token, body, schema }: { token?: string; body?: unknown; schema: S },
): Promise<v.InferOutput<S>> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let response: Response;
  let json: unknown;
  try {
    response = await fetch(path, {
      method: body === undefined ? 'GET' : 'POST',
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: 'no-store',
    });
    json = await response.json().catch(() => undefined);
  } catch (error) {
    throw new ApiError(0, networkMessage, undefined, { cause: error });
  }
  if (!response.ok) throw failure(response.status, json);
  const parsed = v.safeParse(schema, json);
  if (!parsed.success) throw new ApiError(response.status, serverMessages.internal);
  return parsed.output;
}

/** A refusal as the rest of the app reads one: the server's own words where it sent them. */
function failure(status: number, json: unknown): ApiError {
  const parsed = v.safeParse(errorResponseSchema, json);
  if (parsed.success)
    return new ApiError(status, parsed.output.message, parsed.output.errors, { fromServer: true });
  return new ApiError(status, serverMessages.internal);
}

// ---- signing in (no session yet: the challenge is the credential) ---------------------------------------

export const operatorSignIn = (input: OperatorSignInInput) =>
  adminFetch('/v1/admin/sign-in', { body: input, schema: operatorSessionSchema });

export const operatorSetupStart = (challenge: string) =>
  adminFetch('/v1/admin/sign-in/setup', { body: { challenge }, schema: operatorSetupStartResponseSchema });

export const operatorSetupConfirm = (input: OperatorSetupInput) =>
  adminFetch('/v1/admin/sign-in/setup/confirm', { body: input, schema: operatorSetupResponseSchema });

// ---- the session's calls ---------------------------------------------------------------------------------

const call = <S extends v.GenericSchema>(token: string, path: string, schema: S, body?: unknown) =>
  adminFetch(path, { token, body, schema });

/** `next` is a list's links.next as the server wrote it; without it, the first page. */
const pageOf = (first: string, next?: string | null) => next ?? first;

export const operatorSignOut = (token: string) => call(token, '/v1/admin/sign-out', done, {});
export const fetchDashboard = (token: string) =>
  call(token, '/v1/admin/dashboard', v.object({ data: dashboardSchema }));

export const fetchReviewQueue = (token: string, next?: string | null) =>
  call(token, pageOf('/v1/admin/review', next), reviewListSchema);
export const approveUpload = (token: string, id: number) =>
  call(token, `/v1/admin/review/${id}/approve`, done, {});
export const rejectUpload = (token: string, id: number, input: RejectVideoInput) =>
  call(token, `/v1/admin/review/${id}/reject`, done, input);

export const fetchReports = (token: string, next?: string | null) =>
  call(token, pageOf('/v1/admin/reports', next), reportListSchema);
export const dismissReports = (token: string, videoId: number, input: DismissReportsInput) =>
  call(token, `/v1/admin/reports/${videoId}/dismiss`, done, input);
export const takeDownVideo = (token: string, videoId: number, input: TakeDownInput) =>
  call(token, `/v1/admin/reports/${videoId}/take-down`, done, input);

export const fetchVerifications = (token: string, next?: string | null) =>
  call(token, pageOf('/v1/admin/verifications', next), verificationListSchema);
export const approveVerification = (token: string, id: number) =>
  call(token, `/v1/admin/verifications/${id}/approve`, done, {});
export const rejectVerification = (token: string, id: number, input: RejectVerificationInput) =>
  call(token, `/v1/admin/verifications/${id}/reject`, done, input);

export const fetchAccounts = (token: string, q: string, next?: string | null) =>
  call(token, pageOf(`/v1/admin/accounts?${new URLSearchParams(q ? { q } : {})}`, next), accountListSchema);
export const fetchAccount = (token: string, id: number): Promise<{ data: AccountDetail }> =>
  call(token, `/v1/admin/accounts/${id}`, v.object({ data: accountDetailSchema }));
export const suspendAccount = (token: string, id: number, input: SuspendInput) =>
  call(token, `/v1/admin/accounts/${id}/suspend`, done, input);
export const unsuspendAccount = (token: string, id: number, note: string) =>
  call(token, `/v1/admin/accounts/${id}/unsuspend`, done, { note });

/** The audit query as a URL's search part, without the empty filters. */
export function auditSearch(query: Omit<AuditQuery, 'cursor'>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value) params.set(key, String(value));
  const text = params.toString();
  return text ? `?${text}` : '';
}

export const fetchAudit = (token: string, query: Omit<AuditQuery, 'cursor'>, next?: string | null) =>
  call(token, pageOf(`/v1/admin/audit${auditSearch(query)}`, next), auditListSchema);

export const fetchOperators = (token: string) => call(token, '/v1/admin/operators', operatorListSchema);
export const createOperator = (token: string, input: CreateOperatorInput) =>
  call(token, '/v1/admin/operators', createOperatorResponseSchema, input);
export const changeOperatorRole = (token: string, id: number, role: OperatorRole) =>
  call(token, `/v1/admin/operators/${id}/role`, v.object({ data: operatorSchema }), { role });
export const removeOperator = (token: string, id: number) =>
  call(token, `/v1/admin/operators/${id}/remove`, done, {});

/**
 * A file only the operator may read (an ID document image, the audit CSV): fetched with the session token,
 * never put in a URL, so no cache, history or shared link keeps it. The caller makes an object URL of it.
 */
export async function fetchPrivateFile(token: string, path: string): Promise<Blob> {
  let response: Response;
  try {
    response = await fetch(path, { headers: { Authorization: `Bearer ${token}` }, cache: 'no-store' });
  } catch (error) {
    throw new ApiError(0, networkMessage, undefined, { cause: error });
  }
  if (response.ok) return response.blob();
  throw failure(response.status, await response.json().catch(() => undefined));
}

export const documentPath = (id: number, kind: DocumentKind) =>
  `/v1/admin/verifications/${id}/documents/${kind}`;
export const auditCsvPath = (query: Omit<AuditQuery, 'cursor'>) => `/v1/admin/audit.csv${auditSearch(query)}`;
