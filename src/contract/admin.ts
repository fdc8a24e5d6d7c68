// The operators' console (/admin) and its calls (/v1/admin/*): payloads, answers and the words both sides
// show. Not re-exported by ./index: only the console's own chunks and the server import it, so a viewer's
// download never carries it.
import * as v from 'valibot';
import { listOf, verificationStatusSchema, videoStatusSchema } from './common';

export const operatorRoles = ['moderator', 'admin'] as const;
export const operatorRoleSchema = v.picklist(operatorRoles, 'Choose moderator or admin.');
export type OperatorRole = v.InferOutput<typeof operatorRoleSchema>;

export const adminMessages = {
  sessionEnded: 'Your operator session has ended. Sign in again.',
  notOperator: 'Only operators can use the console.',
  adminOnly: 'Only admins can do this.',
  codeRequired: 'Enter the 6-digit code from your authenticator app, or a recovery code.',
  codeWrong: 'That code is not right. Check the time on your phone and try again.',
  challengeEnded: 'This sign-in has expired. Start again with your email and password.',
  passwordRequired: 'Choose a password of at least 12 characters.',
  passwordsDoNotMatch: 'Passwords do not match.',
  reasonRequired: 'Choose a reason.',
  noteTooLong: 'Keep the note under 2000 characters.',
  noteRequired: 'Write a note that says why.',
  emailInvalid: 'Enter a valid email address.',
  notWaiting: 'This item was already decided by someone else. The list is up to date again.',
  suspended: 'This account is suspended. Write to support if you think this is a mistake.',
  alreadySuspended: 'This account is already suspended.',
  notSuspended: 'This account is not suspended.',
  lastAdmin: 'An admin cannot remove themselves or the last admin.',
  operatorExists: 'An operator with this email already exists.',
  emailIsUser: 'This email belongs to a viewer or creator account. Use another address for the operator.',
} as const;

// ---- reasons: one list per decision, each with the words the creator reads ------------------------------

export const videoRejectReasons = {
  underage: 'Someone in the video may be under 18.',
  consent: 'The video does not show that everyone in it agreed to take part and to publication.',
  unverified: 'Someone in the video has not verified their identity with us.',
  illegal: 'The video shows something that is illegal.',
  violence: 'The video shows violence or harm.',
  copyright: 'The video uses material you do not hold the rights to.',
  spam: 'The video is spam or advertising.',
  misleading: 'The title, tags or thumbnail do not match the video.',
  quality: 'The video is broken, blank or unwatchable.',
  other: 'The video breaks our content rules.',
} as const;
export type VideoRejectReason = keyof typeof videoRejectReasons;

export const verificationRejectReasons = {
  unreadable: 'The document photos could not be read.',
  mismatch: 'The details you typed do not match the document.',
  expired: 'The document has expired.',
  selfie: 'The selfie must show your face and the same document, clearly.',
  underage: 'The document shows you are under 18.',
  signature: 'The signature is missing or does not match the declaration.',
  other: 'We could not verify your identity.',
} as const;
export type VerificationRejectReason = keyof typeof verificationRejectReasons;

export const suspendReasons = {
  'illegal-content': 'Illegal content.',
  underage: 'Content with a person under 18.',
  'identity-fraud': 'A false identity or someone else’s documents.',
  'repeat-violations': 'Repeated violations of the content rules.',
  spam: 'Spam or fraud.',
  other: 'A breach of the terms.',
} as const;

const keysOf = <T extends Record<string, string>>(table: T) => Object.keys(table) as [keyof T & string];

const note = v.optional(
  v.pipe(v.string(adminMessages.noteTooLong), v.trim(), v.maxLength(2000, adminMessages.noteTooLong)),
  '',
);
/** A missing reason reads like an empty choice, not like a schema error. */
const reasonOf = <T extends Record<string, string>>(table: T) =>
  v.pipe(
    v.optional(v.string(adminMessages.reasonRequired), ''),
    v.picklist(keysOf(table), adminMessages.reasonRequired),
  );

/** A rejection: one of the list's reasons, plus free text that goes into the mail and the audit log. */
export const rejectVideoSchema = v.object({ reason: reasonOf(videoRejectReasons), note });
export type RejectVideoInput = v.InferOutput<typeof rejectVideoSchema>;

/** Taking a reported video down: a rejection, optionally with the creator's suspension. */
export const takeDownSchema = v.object({
  reason: reasonOf(videoRejectReasons),
  note,
  suspend: v.optional(v.boolean(), false),
});
export type TakeDownInput = v.InferOutput<typeof takeDownSchema>;

/** Dismissing a video's reports: the note is what the next operator reads in the log. */
export const dismissReportsSchema = v.object({
  note: v.pipe(
    v.optional(v.string(adminMessages.noteRequired), ''),
    v.trim(),
    v.nonEmpty(adminMessages.noteRequired),
    v.maxLength(2000, adminMessages.noteTooLong),
  ),
});
export type DismissReportsInput = v.InferOutput<typeof dismissReportsSchema>;

export const rejectVerificationSchema = v.object({ reason: reasonOf(verificationRejectReasons), note });
export type RejectVerificationInput = v.InferOutput<typeof rejectVerificationSchema>;

export const suspendSchema = v.object({ reason: reasonOf(suspendReasons), note });
export type SuspendInput = v.InferOutput<typeof suspendSchema>;

export const unsuspendSchema = v.object({ note });

// ---- sign-in ---------------------------------------------------------------------------------------------

const challengeField = v.pipe(
  v.string(adminMessages.challengeEnded),
  v.regex(/^[A-Za-z0-9_-]{20,128}$/, adminMessages.challengeEnded),
);
/** A 6-digit TOTP code (spaces allowed, as apps show it "123 456") or a recovery code (xxxx-xxxx-xxxx). */
const codeField = v.pipe(
  v.optional(v.string(adminMessages.codeRequired), ''),
  v.transform((s) => s.replace(/\s+/g, '').toLowerCase()),
  v.nonEmpty(adminMessages.codeRequired),
  v.regex(/^(\d{6}|[a-z0-9]{4}-[a-z0-9]{4}-[a-z0-9]{4})$/, adminMessages.codeRequired),
);

/** POST /v1/admin/sign-in: the second step after /v1/login answered with a challenge. */
export const operatorSignInSchema = v.object({ challenge: challengeField, code: codeField });
export type OperatorSignInInput = v.InferOutput<typeof operatorSignInSchema>;

/** POST /v1/admin/sign-in/setup: the key to scan, for the challenge a sign-in link gave. */
export const operatorSetupStartSchema = v.object({ challenge: challengeField });

export const OPERATOR_PASSWORD_MIN = 12;

/** POST /v1/admin/sign-in/setup/confirm: the password chosen and the first code of the scanned key. */
export const operatorSetupSchema = v.pipe(
  v.object({
    challenge: challengeField,
    password: v.pipe(
      v.optional(v.string(adminMessages.passwordRequired), ''),
      v.minLength(OPERATOR_PASSWORD_MIN, adminMessages.passwordRequired),
      v.maxLength(128, 'Password cannot exceed 128 characters.'),
    ),
    password_confirmation: v.optional(v.string(adminMessages.passwordsDoNotMatch), ''),
    code: v.pipe(
      v.optional(v.string(adminMessages.codeRequired), ''),
      v.transform((s) => s.replace(/\s+/g, '')),
      v.regex(/^\d{6}$/, 'Enter the 6-digit code your authenticator app shows now.'),
    ),
  }),
  v.forward(
    v.partialCheck(
      [['password'], ['password_confirmation']],
      (i) => i.password === i.password_confirmation,
      adminMessages.passwordsDoNotMatch,
    ),
    ['password_confirmation'],
  ),
);
export type OperatorSetupInput = v.InferOutput<typeof operatorSetupSchema>;

export const operatorSchema = v.object({
  id: v.number(),
  email: v.string(),
  role: operatorRoleSchema,
});
export type Operator = v.InferOutput<typeof operatorSchema>;

export const operatorSessionSchema = v.object({
  access_token: v.string(),
  operator: operatorSchema,
  /** When the session ends at the latest (12 hours); 30 minutes without a call end it sooner. */
  expires_at: v.string(),
});
export type OperatorSession = v.InferOutput<typeof operatorSessionSchema>;

export const operatorSetupStartResponseSchema = v.object({
  email: v.string(),
  /** The key as text, grouped by four, for typing into an app by hand. */
  secret: v.string(),
  uri: v.string(),
  /** The `otpauth://` URI as a QR code: an SVG data URL. */
  qr: v.string(),
});
export type OperatorSetupStart = v.InferOutput<typeof operatorSetupStartResponseSchema>;

export const operatorSetupResponseSchema = v.object({
  ...operatorSessionSchema.entries,
  /** Shown once: each signs in once in place of a code. */
  recovery_codes: v.array(v.string()),
});

// ---- queues ----------------------------------------------------------------------------------------------

const iso = v.string();

export const creatorSummarySchema = v.object({
  id: v.number(),
  name: v.string(),
  slug: v.string(),
  email: v.string(),
  type: v.picklist(['user', 'model', 'channel']),
  verification: verificationStatusSchema,
  suspended: v.boolean(),
});

export const reviewItemSchema = v.object({
  id: v.number(),
  title: v.string(),
  slug: v.string(),
  tags: v.array(v.string()),
  isNsfw: v.boolean(),
  status: videoStatusSchema,
  /** `held`: out of every list until approved; `open`: public meanwhile (UPLOAD_REVIEW=after). */
  review: v.picklist(['held', 'open']),
  duration: v.number(),
  poster: v.nullable(v.string()),
  playlistUrl: v.nullable(v.string()),
  /** Each rendition's own playlist, lowest first, so the operator can watch any of them. */
  renditions: v.array(v.object({ height: v.number(), url: v.string() })),
  publishAt: iso,
  uploadedAt: iso,
  queuedAt: iso,
  creator: creatorSummarySchema,
});
export type ReviewItem = v.InferOutput<typeof reviewItemSchema>;
export const reviewListSchema = listOf(reviewItemSchema);

export const reportSchema = v.object({
  id: v.number(),
  reason: v.string(),
  message: v.string(),
  /** The reporter's email: a guest's as typed, a user's from the account. */
  email: v.nullable(v.string()),
  createdAt: iso,
});

export const reportGroupSchema = v.object({
  video: v.object({
    id: v.number(),
    title: v.string(),
    status: videoStatusSchema,
    poster: v.nullable(v.string()),
    playlistUrl: v.nullable(v.string()),
    creator: creatorSummarySchema,
  }),
  count: v.number(),
  latestAt: iso,
  reports: v.array(reportSchema),
});
export type ReportGroup = v.InferOutput<typeof reportGroupSchema>;
export const reportListSchema = listOf(reportGroupSchema);

export const documentKinds = ['front', 'back', 'face', 'signature'] as const;
export type DocumentKind = (typeof documentKinds)[number];

export const verificationItemSchema = v.object({
  id: v.number(),
  createdAt: iso,
  creator: creatorSummarySchema,
  legalName: v.string(),
  stageName: v.string(),
  address: v.string(),
  country: v.string(),
  gender: v.string(),
  dateOfBirth: v.string(),
  age: v.number(),
  identification: v.picklist(['driver', 'passport', 'idcard']),
  identificationId: v.string(),
  /** Earlier requests of this creator that were rejected, newest first, with why. */
  previous: v.array(v.object({ createdAt: iso, status: v.string(), reason: v.nullable(v.string()) })),
});
export type VerificationItem = v.InferOutput<typeof verificationItemSchema>;
export const verificationListSchema = listOf(verificationItemSchema);

export const accountSchema = v.object({
  ...creatorSummarySchema.entries,
  username: v.string(),
  createdAt: iso,
  suspendedAt: v.nullable(iso),
  suspensionReason: v.nullable(v.string()),
  videos: v.number(),
  /** Open reports against their videos. */
  openReports: v.number(),
});
export type Account = v.InferOutput<typeof accountSchema>;
export const accountListSchema = listOf(accountSchema);

export const accountDetailSchema = v.object({
  ...accountSchema.entries,
  recentVideos: v.array(
    v.object({
      id: v.number(),
      title: v.string(),
      status: videoStatusSchema,
      review: v.string(),
      poster: v.nullable(v.string()),
      createdAt: iso,
    }),
  ),
});
export type AccountDetail = v.InferOutput<typeof accountDetailSchema>;

export const accountQuerySchema = v.object({
  q: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(200))),
  cursor: v.optional(v.string()),
});

// ---- audit log -------------------------------------------------------------------------------------------

/** Every action the log records, with how the console words it. */
export const auditActions = {
  'operator.sign_in': 'Signed in',
  'operator.setup': 'Set up sign-in',
  'operator.create': 'Added operator',
  'operator.remove': 'Removed operator',
  'operator.role': 'Changed role',
  'video.approve': 'Approved video',
  'video.reject': 'Rejected video',
  'video.take_down': 'Took video down',
  'report.dismiss': 'Dismissed reports',
  'verification.approve': 'Approved identity',
  'verification.reject': 'Rejected identity',
  'verification.view_document': 'Viewed ID document',
  'account.suspend': 'Suspended account',
  'account.unsuspend': 'Lifted suspension',
} as const;
export type AuditAction = keyof typeof auditActions;

export const auditEntrySchema = v.object({
  id: v.number(),
  at: iso,
  actor: v.string(),
  operatorId: v.nullable(v.number()),
  action: v.string(),
  targetType: v.string(),
  targetId: v.string(),
  reason: v.nullable(v.string()),
  detail: v.nullable(v.record(v.string(), v.unknown())),
});
export type AuditEntry = v.InferOutput<typeof auditEntrySchema>;
export const auditListSchema = listOf(auditEntrySchema);

const dateField = v.optional(
  v.pipe(v.string(), v.regex(/^$|^\d{4}-\d{2}-\d{2}$/, 'Dates are written YYYY-MM-DD.')),
);
export const auditQuerySchema = v.object({
  operator: v.optional(v.pipe(v.string(), v.regex(/^$|^\d{1,10}$/, 'Choose an operator from the list.'))),
  action: v.optional(
    v.picklist(['', ...(Object.keys(auditActions) as AuditAction[])], 'Choose an action from the list.'),
  ),
  from: dateField,
  to: dateField,
  cursor: v.optional(v.string()),
});
export type AuditQuery = v.InferOutput<typeof auditQuerySchema>;

// ---- dashboard and operators -----------------------------------------------------------------------------

const queueFigure = v.object({ count: v.number(), oldestAt: v.nullable(iso) });
export const dashboardSchema = v.object({
  review: queueFigure,
  reports: queueFigure,
  verifications: queueFigure,
  suspendedAccounts: v.number(),
  uploadReview: v.picklist(['before', 'after']),
});
export type Dashboard = v.InferOutput<typeof dashboardSchema>;

export const operatorListSchema = v.object({
  data: v.array(
    v.object({
      ...operatorSchema.entries,
      createdAt: iso,
      lastSignInAt: v.nullable(iso),
      /** False until they followed their link and set up the second factor. */
      active: v.boolean(),
    }),
  ),
});

export const createOperatorSchema = v.object({
  email: v.pipe(
    v.optional(v.string(adminMessages.emailInvalid), ''),
    v.trim(),
    v.email(adminMessages.emailInvalid),
    v.maxLength(254, adminMessages.emailInvalid),
    v.toLowerCase(),
  ),
  role: v.optional(operatorRoleSchema, 'moderator'),
});
export type CreateOperatorInput = v.InferOutput<typeof createOperatorSchema>;
export const createOperatorResponseSchema = v.object({
  operator: operatorSchema,
  /** The one-time sign-in link, shown once. */
  link: v.string(),
});

export const changeRoleSchema = v.object({ role: operatorRoleSchema });
