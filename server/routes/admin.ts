// /v1/admin/*: the operators' console (issue 31). Each route parses, checks the operator and the role on the
// server, calls server/admin/ and answers; every answer is `Cache-Control: private, no-store`, so no shared
// cache nor the service worker keeps what only an operator may see.
import fs from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import * as v from 'valibot';
import {
  accountDetailSchema,
  accountListSchema,
  accountQuerySchema,
  adminMessages,
  auditListSchema,
  auditQuerySchema,
  changeRoleSchema,
  createOperatorResponseSchema,
  createOperatorSchema,
  dashboardSchema,
  dismissReportsSchema,
  documentKinds,
  operatorListSchema,
  operatorSchema,
  operatorSessionSchema,
  operatorSetupResponseSchema,
  operatorSetupSchema,
  operatorSetupStartResponseSchema,
  operatorSetupStartSchema,
  operatorSignInSchema,
  rejectVerificationSchema,
  rejectVideoSchema,
  reportListSchema,
  reviewListSchema,
  suspendSchema,
  takeDownSchema,
  unsuspendSchema,
  verificationListSchema,
} from '../../src/contract/admin';
import { idOf } from '../../src/contract/common';
import { auditCsv, listAudit } from '../admin/audit';
import {
  approveVideo,
  decideVerification,
  dismissReports,
  openDocument,
  rejectVideo,
  suspendAccount,
  takeDown,
  unsuspendAccount,
} from '../admin/moderation';
import {
  changeOperatorRole,
  createOperator,
  endSession,
  finishSetup,
  finishSignIn,
  listOperators,
  removeOperator,
  startSetup,
} from '../admin/operators';
import {
  accountDetail,
  dashboard,
  reportGroups,
  reviewQueue,
  searchAccounts,
  verificationQueue,
} from '../admin/queues';
import type { AppDeps } from '../deps';
import { ERR, invalid, messageSchema, type Operation } from '../http/doc';
import { HttpError, notFound } from '../http/errors';
import { requireOperator } from '../http/operator';
import { authLimit } from '../http/rate-limit';
import { parse } from '../http/validate';
import { bearerOf } from '../http/viewer';
import { decodeCursor, encodeCursor } from '../videos/listing';

const PAGE = 20;
const DONE = { message: 'Done.' };

const signedOut: Operation['responses'][number] = {
  description: `No operator session, or it ended (12 hours, or 30 minutes idle): \`${adminMessages.sessionEnded}\``,
  ...ERR,
};
const notOperator: Operation['responses'][number] = {
  description: `A viewer's or creator's token: \`${adminMessages.notOperator}\``,
  ...ERR,
};
const adminOnly: Operation['responses'][number] = {
  description: `A viewer, a creator, or a moderator: \`${adminMessages.adminOnly}\``,
  ...ERR,
};
const decided: Operation['responses'][number] = {
  description: `Already decided by someone else: \`${adminMessages.notWaiting}\``,
  ...ERR,
};
const unknownItem: Operation['responses'][number] = { description: 'No such item.', ...ERR };

/** What every console call answers besides its own outcome. */
const guarded = (op: Omit<Operation, 'auth'>, role: 'moderator' | 'admin' = 'moderator'): Operation => ({
  ...op,
  auth: 'required',
  description: `${op.description ? `${op.description} ` : ''}Operators only (${role === 'admin' ? 'admins' : 'moderators and admins'}); answers \`Cache-Control: private, no-store\`.`,
  responses: { 401: signedOut, 403: role === 'admin' ? adminOnly : notOperator, ...op.responses },
});

const pathId = (request: FastifyRequest): number => {
  const id = idOf((request.params as { id?: string }).id ?? '');
  if (id === undefined) throw notFound();
  return id;
};

const timeCursor = v.object({ at: v.number(), id: v.number() });
const idCursor = v.object({ id: v.number() });
const offsetCursor = v.object({
  offset: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(1_000_000)),
});
const cursorQuery = v.object({ cursor: v.optional(v.string()) });
/** The audit filters without paging: the CSV is the whole filtered log. */
const csvQuery = v.omit(auditQuerySchema, ['cursor']);

/** links.next of a console list: the same path and filters, the new cursor. */
function next(request: FastifyRequest, cursor: object | undefined): string | null {
  if (!cursor) return null;
  const url = new URL(request.url, 'http://x');
  url.searchParams.set('cursor', encodeCursor(cursor));
  return `${url.pathname}${url.search}`;
}

export default async function adminRoutes(app: FastifyInstance, deps: AppDeps) {
  const { db } = deps.database;

  await app.register(async (scope) => {
    scope.addHook('onSend', async (_request, reply: FastifyReply) => {
      reply.header('Cache-Control', 'private, no-store');
    });

    // ---- signing in: the steps after /v1/login or /v1/login/token answered with a challenge ----------

    const signInDoc: Operation = {
      summary: 'Operator sign-in, second step: a TOTP code or a recovery code',
      body: operatorSignInSchema,
      description:
        '`challenge` is what POST /v1/login answered for an operator’s email and password. Each TOTP code ' +
        'and each recovery code works once; five wrong codes end the challenge. The session lasts 12 hours ' +
        'at most and ends after 30 minutes without a call.',
      responses: {
        200: { description: 'Signed in.', schema: operatorSessionSchema },
        401: { description: `Wrong code, or \`${adminMessages.challengeEnded}\``, ...ERR },
        422: invalid,
        429: { description: 'Too many attempts from one address.', ...ERR },
      },
    };
    scope.post('/v1/admin/sign-in', { config: { ...authLimit(deps), doc: signInDoc } }, async (request) => {
      const input = parse(operatorSignInSchema, request.body);
      return finishSignIn(db, input, request.ip);
    });

    const setupStartDoc: Operation = {
      summary: 'Operator setup: the TOTP key to scan',
      body: operatorSetupStartSchema,
      description:
        '`challenge` is what POST /v1/login/token answered for an operator’s sign-in link (valid 30 minutes). ' +
        'The same key is answered until the setup is confirmed.',
      responses: {
        200: { description: 'The key, as text and as a QR code.', schema: operatorSetupStartResponseSchema },
        401: { description: `\`${adminMessages.challengeEnded}\``, ...ERR },
        422: invalid,
        429: { description: 'Too many attempts from one address.', ...ERR },
      },
    };
    scope.post(
      '/v1/admin/sign-in/setup',
      { config: { ...authLimit(deps), doc: setupStartDoc } },
      async (request) => {
        const { challenge } = parse(operatorSetupStartSchema, request.body);
        return startSetup(db, challenge);
      },
    );

    const setupDoc: Operation = {
      summary: 'Operator setup: choose the password, prove the key with its first code',
      body: operatorSetupSchema,
      description: 'Answers a session and ten recovery codes, shown this once.',
      responses: {
        200: { description: 'Set up and signed in.', schema: operatorSetupResponseSchema },
        401: { description: `Wrong code, or \`${adminMessages.challengeEnded}\``, ...ERR },
        422: invalid,
        429: { description: 'Too many attempts from one address.', ...ERR },
      },
    };
    scope.post(
      '/v1/admin/sign-in/setup/confirm',
      { config: { ...authLimit(deps), doc: setupDoc } },
      async (request) => {
        const input = parse(operatorSetupSchema, request.body);
        return finishSetup(db, input, request.ip);
      },
    );

    scope.post(
      '/v1/admin/sign-out',
      {
        config: {
          doc: guarded({
            summary: 'End this operator session',
            responses: { 200: { description: 'Signed out.', schema: messageSchema } },
          }),
        },
      },
      async (request) => {
        await requireOperator(request, deps);
        const token = bearerOf(request);
        if (token) await endSession(db, token);
        return { message: 'Signed out.' };
      },
    );

    scope.get(
      '/v1/admin/me',
      {
        config: {
          doc: guarded({
            summary: 'The operator signed in',
            responses: { 200: { description: 'The operator.', schema: v.object({ data: operatorSchema }) } },
          }),
        },
      },
      async (request) => {
        const operator = await requireOperator(request, deps);
        return { data: { id: operator.operatorId, email: operator.name, role: operator.role } };
      },
    );

    scope.get(
      '/v1/admin/dashboard',
      {
        config: {
          doc: guarded({
            summary: 'Queue lengths and the age of their oldest item',
            responses: { 200: { description: 'Figures.', schema: v.object({ data: dashboardSchema }) } },
          }),
        },
      },
      async (request) => {
        await requireOperator(request, deps);
        return { data: await dashboard(db, deps.config.uploadReview) };
      },
    );

    // ---- uploads ---------------------------------------------------------------------------------------

    scope.get(
      '/v1/admin/review',
      {
        config: {
          doc: guarded({
            summary: 'Uploads waiting for review, oldest first',
            query: cursorQuery,
            description: `${PAGE} per page. A held video (UPLOAD_REVIEW=before) is in no list until approved.`,
            responses: { 200: { description: 'A page.', schema: reviewListSchema }, 422: invalid },
          }),
        },
      },
      async (request) => {
        const after = decodeCursor(timeCursor, parse(cursorQuery, request.query).cursor);
        await requireOperator(request, deps);
        const page = await reviewQueue(db, deps.storage, {
          after,
          limit: PAGE,
        });
        return { data: page.items, links: { next: page.more ? next(request, page.last) : null } };
      },
    );

    const decision = (summary: string, body?: v.GenericSchema) =>
      guarded({
        summary,
        ...(body ? { body } : {}),
        responses: {
          200: { description: 'Done.', schema: messageSchema },
          404: unknownItem,
          409: decided,
          422: invalid,
        },
      });

    scope.post(
      '/v1/admin/review/:id/approve',
      { config: { doc: decision('Approve an upload: it goes public') } },
      async (request) => {
        const actor = await requireOperator(request, deps);
        await approveVideo(deps, actor, pathId(request));
        return DONE;
      },
    );

    scope.post(
      '/v1/admin/review/:id/reject',
      {
        config: { doc: decision('Reject an upload, with a reason mailed to its creator', rejectVideoSchema) },
      },
      async (request) => {
        const actor = await requireOperator(request, deps);
        const id = pathId(request);
        await rejectVideo(deps, actor, id, parse(rejectVideoSchema, request.body));
        return DONE;
      },
    );

    // ---- reports ---------------------------------------------------------------------------------------

    scope.get(
      '/v1/admin/reports',
      {
        config: {
          doc: guarded({
            summary: 'Reported videos with their open reports, most reported first',
            query: cursorQuery,
            responses: { 200: { description: 'A page.', schema: reportListSchema }, 422: invalid },
          }),
        },
      },
      async (request) => {
        const { cursor } = parse(cursorQuery, request.query);
        const offset = decodeCursor(offsetCursor, cursor)?.offset ?? 0;
        await requireOperator(request, deps);
        const page = await reportGroups(db, deps.storage, { offset, limit: PAGE });
        return {
          data: page.groups,
          links: { next: page.more ? next(request, { offset: offset + PAGE }) : null },
        };
      },
    );

    scope.post(
      '/v1/admin/reports/:id/dismiss',
      {
        config: { doc: decision('Dismiss every open report of a video, with a note', dismissReportsSchema) },
      },
      async (request) => {
        const actor = await requireOperator(request, deps);
        const id = pathId(request);
        const { note } = parse(dismissReportsSchema, request.body);
        await dismissReports(deps, actor, id, note);
        return DONE;
      },
    );

    scope.post(
      '/v1/admin/reports/:id/take-down',
      {
        config: {
          doc: decision(
            'Take a reported video down (rejected, reason mailed), and with `suspend` its creator too',
            takeDownSchema,
          ),
        },
      },
      async (request) => {
        const actor = await requireOperator(request, deps);
        const id = pathId(request);
        await takeDown(deps, actor, id, parse(takeDownSchema, request.body));
        return DONE;
      },
    );

    // ---- identity checks -------------------------------------------------------------------------------

    scope.get(
      '/v1/admin/verifications',
      {
        config: {
          doc: guarded({
            summary: 'Pending identity checks, oldest first',
            query: cursorQuery,
            description: 'The images are read one by one from /v1/admin/verifications/{id}/documents/{kind}.',
            responses: { 200: { description: 'A page.', schema: verificationListSchema }, 422: invalid },
          }),
        },
      },
      async (request) => {
        const after = decodeCursor(timeCursor, parse(cursorQuery, request.query).cursor);
        await requireOperator(request, deps);
        const page = await verificationQueue(db, { after, limit: PAGE });
        return { data: page.items, links: { next: page.more ? next(request, page.last) : null } };
      },
    );

    const documentDoc = guarded({
      summary:
        'One image of an identity check: front, back, face (the selfie with the document) or signature',
      description: 'Each view is written to the audit log before the image is sent. A JPEG.',
      responses: { 200: { description: 'The image (image/jpeg).' }, 404: unknownItem },
    });
    scope.get(
      '/v1/admin/verifications/:id/documents/:kind',
      { config: { doc: documentDoc } },
      async (request, reply) => {
        const actor = await requireOperator(request, deps);
        const id = pathId(request);
        const { kind } = request.params as { kind: string };
        if (!(documentKinds as readonly string[]).includes(kind)) throw notFound();
        const copy = await openDocument(deps, actor, id, kind as (typeof documentKinds)[number]).catch(
          (err: unknown) => {
            if (err instanceof HttpError) throw err;
            throw notFound();
          },
        );
        try {
          const bytes = await fs.readFile(copy.path);
          return reply
            .header('Content-Type', 'image/jpeg')
            .header('Content-Disposition', 'inline')
            .header('X-Robots-Tag', 'noindex')
            .send(bytes);
        } finally {
          await copy.release();
        }
      },
    );

    scope.post(
      '/v1/admin/verifications/:id/approve',
      { config: { doc: decision('Approve an identity check (mailed)') } },
      async (request) => {
        const actor = await requireOperator(request, deps);
        await decideVerification(deps, actor, pathId(request), { approve: true });
        return DONE;
      },
    );

    scope.post(
      '/v1/admin/verifications/:id/reject',
      {
        config: {
          doc: decision(
            'Reject an identity check, with a reason the creator reads (mailed)',
            rejectVerificationSchema,
          ),
        },
      },
      async (request) => {
        const actor = await requireOperator(request, deps);
        const id = pathId(request);
        const input = parse(rejectVerificationSchema, request.body);
        await decideVerification(deps, actor, id, { approve: false, ...input });
        return DONE;
      },
    );

    // ---- accounts --------------------------------------------------------------------------------------

    scope.get(
      '/v1/admin/accounts',
      {
        config: {
          doc: guarded({
            summary: 'Accounts by email, name, username, slug or id; newest first',
            query: accountQuerySchema,
            responses: { 200: { description: 'A page.', schema: accountListSchema }, 422: invalid },
          }),
        },
      },
      async (request) => {
        const query = parse(accountQuerySchema, request.query);
        const before = decodeCursor(idCursor, query.cursor)?.id;
        await requireOperator(request, deps);
        const page = await searchAccounts(db, { q: query.q, before, limit: PAGE });
        const last = page.accounts[page.accounts.length - 1];
        return {
          data: page.accounts,
          links: { next: page.more && last ? next(request, { id: last.id }) : null },
        };
      },
    );

    scope.get(
      '/v1/admin/accounts/:id',
      {
        config: {
          doc: guarded({
            summary: 'One account, with its latest videos',
            responses: {
              200: { description: 'The account.', schema: v.object({ data: accountDetailSchema }) },
              404: unknownItem,
            },
          }),
        },
      },
      async (request) => {
        await requireOperator(request, deps);
        const account = await accountDetail(db, deps.storage, pathId(request));
        if (!account) throw notFound();
        return { data: account };
      },
    );

    scope.post(
      '/v1/admin/accounts/:id/suspend',
      {
        config: {
          doc: decision(
            'Suspend an account: signed out everywhere, its profile and videos hidden, no login',
            suspendSchema,
          ),
        },
      },
      async (request) => {
        const actor = await requireOperator(request, deps);
        const id = pathId(request);
        await suspendAccount(deps, actor, id, parse(suspendSchema, request.body));
        return DONE;
      },
    );

    scope.post(
      '/v1/admin/accounts/:id/unsuspend',
      {
        config: {
          doc: guarded(
            {
              summary: 'Lift a suspension',
              body: unsuspendSchema,
              responses: {
                200: { description: 'Done.', schema: messageSchema },
                404: unknownItem,
                409: decided,
                422: invalid,
              },
            },
            'admin',
          ),
        },
      },
      async (request) => {
        const actor = await requireOperator(request, deps, 'admin');
        const id = pathId(request);
        const { note } = parse(unsuspendSchema, request.body);
        await unsuspendAccount(deps, actor, id, note);
        return DONE;
      },
    );

    // ---- audit log -------------------------------------------------------------------------------------

    const auditFilter = (
      request: FastifyRequest,
      schema: typeof auditQuerySchema | typeof csvQuery = auditQuerySchema,
    ) => {
      const query: {
        operator?: string | undefined;
        action?: string | undefined;
        from?: string | undefined;
        to?: string | undefined;
        cursor?: string | undefined;
      } = parse(schema, request.query);
      return {
        query,
        filter: {
          operatorId: query.operator ? Number(query.operator) : undefined,
          action: query.action || undefined,
          from: query.from || undefined,
          to: query.to || undefined,
        },
      };
    };

    scope.get(
      '/v1/admin/audit',
      {
        config: {
          doc: guarded({
            summary: 'The audit log, newest first, by operator, action and dates',
            query: auditQuerySchema,
            responses: { 200: { description: 'A page.', schema: auditListSchema }, 422: invalid },
          }),
        },
      },
      async (request) => {
        const { query, filter } = auditFilter(request);
        const before = decodeCursor(idCursor, query.cursor)?.id;
        await requireOperator(request, deps);
        const page = await listAudit(db, filter, { before, limit: 50 });
        const last = page.entries[page.entries.length - 1];
        return {
          data: page.entries,
          links: { next: page.more && last ? next(request, { id: last.id }) : null },
        };
      },
    );

    scope.get(
      '/v1/admin/audit.csv',
      {
        config: {
          doc: guarded(
            {
              summary: 'The filtered audit log as CSV, oldest first',
              query: csvQuery,
              responses: { 200: { description: 'text/csv' }, 422: invalid },
            },
            'admin',
          ),
        },
      },
      async (request, reply) => {
        const { filter } = auditFilter(request, csvQuery);
        await requireOperator(request, deps, 'admin');
        return reply
          .header('Content-Type', 'text/csv; charset=utf-8')
          .header(
            'Content-Disposition',
            `attachment; filename="audit-${new Date().toISOString().slice(0, 10)}.csv"`,
          )
          .send(Readable.from(auditCsv(db, filter)));
      },
    );

    // ---- operators (admins) ----------------------------------------------------------------------------

    scope.get(
      '/v1/admin/operators',
      {
        config: {
          doc: guarded(
            {
              summary: 'Operators',
              responses: { 200: { description: 'Every operator.', schema: operatorListSchema } },
            },
            'admin',
          ),
        },
      },
      async (request) => {
        await requireOperator(request, deps, 'admin');
        return { data: await listOperators(db) };
      },
    );

    scope.post(
      '/v1/admin/operators',
      {
        config: {
          doc: guarded(
            {
              summary: 'Add an operator: answers their one-time sign-in link',
              body: createOperatorSchema,
              description:
                'For an operator who never finished setting up, a new link (the old one stops working).',
              responses: {
                201: { description: 'Added.', schema: createOperatorResponseSchema },
                409: { description: 'The email already signs in.', ...ERR },
                422: invalid,
              },
            },
            'admin',
          ),
        },
      },
      async (request, reply) => {
        const actor = await requireOperator(request, deps, 'admin');
        const input = parse(createOperatorSchema, request.body);
        const created = await createOperator(db, actor, input.email, input.role);
        return reply
          .status(201)
          .send({ operator: created.operator, link: `${deps.config.publicUrl}/login/${created.token}` });
      },
    );

    scope.post(
      '/v1/admin/operators/:id/role',
      {
        config: {
          doc: guarded(
            {
              summary: 'Change an operator’s role',
              body: changeRoleSchema,
              responses: {
                200: { description: 'The operator.', schema: v.object({ data: operatorSchema }) },
                404: unknownItem,
                409: { description: `\`${adminMessages.lastAdmin}\``, ...ERR },
                422: invalid,
              },
            },
            'admin',
          ),
        },
      },
      async (request) => {
        const actor = await requireOperator(request, deps, 'admin');
        const id = pathId(request);
        const { role } = parse(changeRoleSchema, request.body);
        return { data: await changeOperatorRole(db, actor, id, role) };
      },
    );

    scope.post(
      '/v1/admin/operators/:id/remove',
      {
        config: {
          doc: guarded(
            {
              summary: 'Remove an operator: their sessions end now',
              responses: {
                200: { description: 'Removed.', schema: messageSchema },
                404: unknownItem,
                409: { description: `\`${adminMessages.lastAdmin}\``, ...ERR },
              },
            },
            'admin',
          ),
        },
      },
      async (request) => {
        const actor = await requireOperator(request, deps, 'admin');
        await removeOperator(db, actor, pathId(request));
        return DONE;
      },
    );
  });
}
