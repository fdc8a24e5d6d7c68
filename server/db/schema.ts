// One schema for PGlite and PostgreSQL: only pg-core types both understand. Counters that feeds sort by
// (views, likes) are denormalised onto videos and kept in step by the routes that change them.
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

export const studios = pgTable('studios', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  /** The join key is shown once to the operator and stored hashed. */
  keyHash: text('key_hash').notNull().unique(),
  createdAt: createdAt(),
});

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    type: text('type', { enum: ['user', 'model', 'channel'] }).notNull(),
    name: text('name').notNull(),
    username: text('username').notNull(),
    slug: text('slug').notNull(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
    avatarPath: text('avatar_path'),
    coverPath: text('cover_path'),
    description: text('description'),
    color: text('color'),
    gender: text('gender', { enum: ['m', 't'] })
      .notNull()
      .default('m'),
    phoneNumber: text('phone_number'),
    country: text('country'),
    /** Comma-joined gender codes the user prefers to watch. */
    preference: text('preference'),
    isLive: boolean('is_live').notNull().default(false),
    verificationStatus: text('verification_status', { enum: ['none', 'pending', 'rejected', 'approved'] })
      .notNull()
      .default('none'),
    studioId: integer('studio_id').references(() => studios.id, { onDelete: 'set null' }),
    /** A studio manager may edit the profiles and videos of the studio's members. */
    studioRole: text('studio_role', { enum: ['member', 'manager'] }),
    isDemo: boolean('is_demo').notNull().default(false),
    /**
     * Set by an operator (server/admin): the account cannot sign in, and its profile and videos are left out
     * of every list and read until the suspension is lifted.
     */
    suspendedAt: timestamp('suspended_at', { withTimezone: true }),
    suspensionReason: text('suspension_reason'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('users_username_lower').on(sql`lower(${t.username})`),
    uniqueIndex('users_slug_lower').on(sql`lower(${t.slug})`),
    uniqueIndex('users_email_lower').on(sql`lower(${t.email})`),
    index('users_type').on(t.type, t.gender),
    // Discover's newest creators (server/discover/queries.ts, latestCreators): a walk from the newest that stops
    // at the twelfth with a public video, instead of testing every creator for one and sorting them.
    index('users_creators_newest')
      .on(t.createdAt, t.id)
      .where(sql`${t.type} in ('model', 'channel') and ${t.suspendedAt} is null`),
  ],
);

export const accessTokens = pgTable(
  'access_tokens',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** SHA-256 of the random token: a stolen row cannot be replayed as a bearer. */
    tokenHash: text('token_hash').notNull().unique(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    /**
     * A session opened by a password-reset link may set a new password without the current one (that is what
     * the link is for) until then; every other session must give the current password.
     */
    resetUntil: timestamp('reset_until', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('access_tokens_user').on(t.userId)],
);

/** One-time tokens mailed to users: email verification, login links and password resets. */
export const userTokens = pgTable(
  'user_tokens',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['verify_email', 'login', 'password_reset'] }).notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('user_tokens_user').on(t.userId, t.kind)],
);

export const links = pgTable(
  'links',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    name: text('name').notNull(),
    icon: text('icon'),
    isLive: boolean('is_live').notNull().default(false),
    isImportant: boolean('is_important').notNull().default(false),
    position: integer('position').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [index('links_user').on(t.userId, t.position)],
);

export const contests = pgTable(
  'contests',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    content: text('content').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('contests_user').on(t.userId)],
);

export const videos = pgTable(
  'videos',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    slug: text('slug').notNull(),
    title: text('title').notNull().default(''),
    status: text('status', {
      enum: ['uploaded', 'preprocess', 'processing', 'approved', 'rejected', 'deleting', 'error'],
    })
      .notNull()
      .default('uploaded'),
    /** Why a video is in error or rejected, in words a creator understands. */
    statusReason: text('status_reason'),
    isNsfw: boolean('is_nsfw').notNull().default(false),
    isVertical: boolean('is_vertical').notNull().default(true),
    durationSeconds: real('duration_seconds').notNull().default(0),
    width: integer('width'),
    height: integer('height'),
    /** Paths relative to DATA_DIR/media. */
    sourcePath: text('source_path'),
    playlistPath: text('playlist_path'),
    thumbnailPath: text('thumbnail_path'),
    /** The poster at grid size (tile.jpg): grids and carousels load it instead of the full-screen one. */
    tilePath: text('tile_path'),
    /**
     * Random part of the media folder's name (videos/{id}-{key}, server/media/storage.ts): media is served
     * without a login, so only the API, which filters by visibility, can tell where a video's files are.
     * Null for videos from before it existed, whose folder is videos/{id}; never given a default, which
     * would move them.
     */
    mediaKey: text('media_key'),
    renditions: jsonb('renditions').$type<{ height: number; width: number; bandwidth: number }[]>(),
    /**
     * Scheduling: hidden from every public list until this moment. Kept to the millisecond, as a JS Date and
     * a list cursor hold it, so newest-first lists order by the column itself and walk videos_public.
     */
    publishAt: timestamp('publish_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    uploadTimezone: text('upload_timezone'),
    redirectToTag: text('redirect_to_tag'),
    viewCount: integer('view_count').notNull().default(0),
    likeCount: integer('like_count').notNull().default(0),
    /**
     * Views and likes of the last 7 days (discover's weekly groups), kept like the all-time counters: a write
     * adds its rows, and server/videos/weekly.ts takes away the rows that grow older than the window.
     */
    weekViewCount: integer('week_view_count').notNull().default(0),
    weekLikeCount: integer('week_like_count').notNull().default(0),
    ratingCount: integer('rating_count').notNull().default(0),
    ratingSum: integer('rating_sum').notNull().default(0),
    isDemo: boolean('is_demo').notNull().default(false),
    /** Recipe for generated demo media, so an interrupted first start can finish the job later. */
    demoRecipe: jsonb('demo_recipe').$type<Record<string, unknown>>(),
    approvedAt: timestamp('approved_at', { withTimezone: true }),
    /**
     * Where the video stands with the operators (server/admin/review-machine.ts): `none` was never queued (the
     * demo seed, videos from before review existed); `held` waits for review out of every list
     * (UPLOAD_REVIEW=before); `open` waits for review while public (UPLOAD_REVIEW=after); `approved` and
     * `rejected` are an operator's decision (a rejected video's status is `rejected` too).
     */
    review: text('review', { enum: ['none', 'held', 'open', 'approved', 'rejected'] })
      .notNull()
      .default('none'),
    /** When the video joined the review queue: the queue is oldest first. */
    reviewQueuedAt: timestamp('review_queued_at', { withTimezone: true }),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    /**
     * The creator's suspension (users.suspended_at), copied here in the transaction that sets or lifts it, so
     * that every list keeps one cheap test on the row it already reads instead of a lookup of its creator.
     */
    creatorSuspended: boolean('creator_suspended').notNull().default(false),
    /** Media job runs started for this upload (retries and restarts included): bounds a video that kills its worker. */
    mediaAttempts: smallint('media_attempts').notNull().default(0),
    /** Written every few seconds while a media job runs: a stale value means its worker died. */
    mediaHeartbeatAt: timestamp('media_heartbeat_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // Every public list's newest-first walk (server/videos/visibility.ts, publicVideo). Only videos a list may
    // show are in it, and with the creator (gender and geo-block tests) the walk need not read the table: a tag's
    // newest videos, the home feed's candidates, are an index-only walk checked against video_tags. user_id
    // fills what the row's alignment left empty: the entries are no larger.
    index('videos_public')
      .on(t.status, t.publishAt, t.id, t.userId)
      .where(sql`${t.review} <> 'held' and not ${t.creatorSuspended}`),
    index('videos_user').on(t.userId, t.id),
    // The home feed's engagement term (server/videos/ranking.ts, ENGAGEMENT: the same expression, or the planner
    // cannot use this index), so that its best-engaged candidates are an index walk, not a sort of every video.
    index('videos_engagement').on(
      t.status,
      sql`greatest(1 + 3 * ${t.likeCount} + 0.25 * ${t.viewCount} + 2 * (${t.ratingSum} - 3 * ${t.ratingCount}), 0.1)`,
    ),
    // Discover's four groups (server/discover/queries.ts, rankedVideos): their top ten are a walk down one of these,
    // not a sort of every public video.
    index('videos_liked').on(t.status, t.likeCount, t.id),
    index('videos_viewed').on(t.status, t.viewCount, t.id),
    index('videos_liked_week').on(t.status, t.weekLikeCount, t.id),
    index('videos_viewed_week').on(t.status, t.weekViewCount, t.id),
    // The review queue: only the videos waiting, oldest first, whatever the catalogue's size.
    index('videos_review_queue').on(t.reviewQueuedAt, t.id).where(sql`${t.review} in ('held', 'open')`),
  ],
);

/**
 * One row: the weekly counters count the like and view rows created after `countedAfter`. The expiry job
 * moves it forward as it takes the older rows away, so a row is never taken away twice (server/videos/weekly.ts).
 */
export const weeklyWindow = pgTable('weekly_window', {
  id: smallint('id').primaryKey().default(1),
  countedAfter: timestamp('counted_after', { withTimezone: true }).notNull(),
});

export const tags = pgTable('tags', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  slug: text('slug').notNull().unique(),
  createdAt: createdAt(),
});

export const videoTags = pgTable(
  'video_tags',
  {
    videoId: integer('video_id')
      .notNull()
      .references(() => videos.id, { onDelete: 'cascade' }),
    tagId: integer('tag_id')
      .notNull()
      .references(() => tags.id, { onDelete: 'cascade' }),
    position: smallint('position').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.videoId, t.tagId] }), index('video_tags_tag').on(t.tagId, t.videoId)],
);

export const categories = pgTable('categories', {
  id: serial('id').primaryKey(),
  slug: text('slug').notNull().unique(),
  name: text('name').notNull(),
  position: integer('position').notNull().default(0),
});

export const videoCategories = pgTable(
  'video_categories',
  {
    videoId: integer('video_id')
      .notNull()
      .references(() => videos.id, { onDelete: 'cascade' }),
    categoryId: integer('category_id')
      .notNull()
      .references(() => categories.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.videoId, t.categoryId] }), index('video_categories_cat').on(t.categoryId)],
);

export const webcamSites = pgTable('webcam_sites', {
  id: serial('id').primaryKey(),
  slug: text('slug').notNull().unique(),
  name: text('name').notNull(),
  icon: text('icon'),
  url: text('url'),
  position: integer('position').notNull().default(0),
});

/** Which cam sites a creator performs on: "Best of {site}" feeds list their videos. */
export const creatorWebcamSites = pgTable(
  'creator_webcam_sites',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    siteId: integer('site_id')
      .notNull()
      .references(() => webcamSites.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.siteId] }), index('creator_webcam_sites_site').on(t.siteId)],
);

/**
 * A viewer is a user or a guest. `viewerKey` is `u:{id}` or `g:{guestId}` so that one unique index
 * covers both and a like can never be counted twice for the same viewer.
 */
const viewerColumns = () => ({
  userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
  guestId: text('guest_id'),
  viewerKey: text('viewer_key').notNull(),
});

export const videoLikes = pgTable(
  'video_likes',
  {
    videoId: integer('video_id')
      .notNull()
      .references(() => videos.id, { onDelete: 'cascade' }),
    ...viewerColumns(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.videoId, t.viewerKey] }),
    index('video_likes_viewer').on(t.viewerKey),
    // The weekly expiry reads the rows that just left the 7-day window: a short range, whatever the table's size.
    index('video_likes_created').on(t.createdAt),
  ],
);

export const videoViews = pgTable(
  'video_views',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    videoId: integer('video_id')
      .notNull()
      .references(() => videos.id, { onDelete: 'cascade' }),
    ...viewerColumns(),
    createdAt: createdAt(),
  },
  (t) => [
    index('video_views_video').on(t.videoId, t.createdAt),
    index('video_views_viewer').on(t.viewerKey, t.videoId),
    index('video_views_created').on(t.createdAt),
  ],
);

export const videoRatings = pgTable(
  'video_ratings',
  {
    videoId: integer('video_id')
      .notNull()
      .references(() => videos.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    rating: smallint('rating').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.videoId, t.userId] }), index('video_ratings_user').on(t.userId)],
);

export const follows = pgTable(
  'follows',
  {
    followerId: integer('follower_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    modelId: integer('model_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.followerId, t.modelId] }),
    index('follows_model').on(t.modelId, t.createdAt),
  ],
);

export const reports = pgTable(
  'reports',
  {
    id: serial('id').primaryKey(),
    videoId: integer('video_id')
      .notNull()
      .references(() => videos.id, { onDelete: 'cascade' }),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    guestId: text('guest_id'),
    email: text('email'),
    reason: text('reason').notNull(),
    message: text('message').notNull(),
    /** `open` until an operator dismisses it or acts on its video (every open report of it closes then). */
    status: text('status', { enum: ['open', 'dismissed', 'actioned'] })
      .notNull()
      .default('open'),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    resolvedBy: integer('resolved_by').references(() => operators.id),
    resolutionNote: text('resolution_note'),
    createdAt: createdAt(),
  },
  (t) => [
    index('reports_video').on(t.videoId),
    index('reports_open').on(t.videoId, t.createdAt).where(sql`${t.status} = 'open'`),
  ],
);

/**
 * Clicks and views are the business's revenue figures: every post is kept as it came (the raw events), and
 * only the first of one viewer for one target within the counting window is `counted`
 * (server/tracking/counting.ts). `count_key` is who counts as one viewer: `u:{id}`, or for guests the client's
 * network (a guest id is the client's to make up); null on rows from before the distinction.
 */
const countingColumns = () => ({
  countKey: text('count_key'),
  counted: boolean('counted').notNull().default(true),
});

export const events = pgTable(
  'events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    eventId: smallint('event_id').notNull(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    guestId: text('guest_id'),
    ...countingColumns(),
    createdAt: createdAt(),
  },
  (t) => [
    index('events_event').on(t.eventId, t.createdAt),
    index('events_counted').on(t.eventId, t.countKey, t.createdAt).where(sql`${t.counted}`),
  ],
);

export const linkClicks = pgTable(
  'link_clicks',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    linkId: integer('link_id')
      .notNull()
      .references(() => links.id, { onDelete: 'cascade' }),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    guestId: text('guest_id'),
    isLive: boolean('is_live').notNull().default(false),
    linkLocation: text('link_location').notNull().default('profile'),
    ...countingColumns(),
    createdAt: createdAt(),
  },
  (t) => [
    index('link_clicks_link').on(t.linkId, t.createdAt),
    index('link_clicks_counted').on(t.linkId, t.countKey, t.createdAt).where(sql`${t.counted}`),
  ],
);

export const profileViews = pgTable(
  'profile_views',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    profileId: integer('profile_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    guestId: text('guest_id'),
    ...countingColumns(),
    createdAt: createdAt(),
  },
  (t) => [
    index('profile_views_profile').on(t.profileId, t.createdAt),
    index('profile_views_counted').on(t.profileId, t.countKey, t.createdAt).where(sql`${t.counted}`),
  ],
);

/** `regionCode` '' means the entire country; one row per (creator, country, region). */
export const geoBlocks = pgTable(
  'geo_blocks',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    countryCode: text('country_code').notNull(),
    regionCode: text('region_code').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('geo_blocks_unique').on(t.userId, t.countryCode, t.regionCode),
    index('geo_blocks_country').on(t.countryCode, t.regionCode),
  ],
);

export const verificationRequests = pgTable(
  'verification_requests',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    legalName: text('legal_name').notNull(),
    stageName: text('stage_name').notNull(),
    address: text('address').notNull(),
    country: text('country').notNull(),
    gender: text('gender').notNull(),
    dateOfBirth: date('date_of_birth').notNull(),
    age: smallint('age').notNull(),
    identification: text('identification', { enum: ['driver', 'passport', 'idcard'] }).notNull(),
    identificationId: text('identification_id').notNull(),
    frontPicturePath: text('front_picture_path').notNull(),
    backPicturePath: text('back_picture_path').notNull(),
    facePicturePath: text('face_picture_path').notNull(),
    signaturePath: text('signature_path').notNull(),
    status: text('status', { enum: ['pending', 'approved', 'rejected'] })
      .notNull()
      .default('pending'),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    reviewedBy: integer('reviewed_by').references(() => operators.id),
    /** Why it was rejected, in words the creator reads on the verification screen and in the mail. */
    rejectReason: text('reject_reason'),
    createdAt: createdAt(),
  },
  (t) => [
    index('verification_requests_user').on(t.userId, t.createdAt),
    index('verification_requests_pending').on(t.createdAt).where(sql`${t.status} = 'pending'`),
  ],
);

export const pages = pgTable('pages', {
  slug: text('slug').primaryKey(),
  title: text('title').notNull(),
  content: text('content').notNull(),
  updatedAt: updatedAt(),
});

export const contactMessages = pgTable('contact_messages', {
  id: serial('id').primaryKey(),
  email: text('email').notNull(),
  message: text('message').notNull(),
  ip: text('ip'),
  createdAt: createdAt(),
});

export const searchLog = pgTable(
  'search_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    query: text('query').notNull(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    guestId: text('guest_id'),
    resultCount: integer('result_count').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [index('search_log_created').on(t.createdAt)],
);

/** A replayed POST with the same Idempotency-Key gets the first answer back and changes nothing. */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    scope: text('scope').notNull(),
    /** Whose key it is (viewer key, else client address): a key only ever replays its own sender's post. */
    caller: text('caller').notNull(),
    key: text('key').notNull(),
    statusCode: smallint('status_code').notNull(),
    body: jsonb('body'),
    /** Hash of the request the key was first used with: the same key with another body is refused. */
    requestHash: text('request_hash'),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.scope, t.caller, t.key] }),
    index('idempotency_keys_created').on(t.createdAt),
  ],
);

/** Resumable (tus) uploads in progress, so that a restart knows who owns which partial file. */
export const uploadSessions = pgTable(
  'upload_sessions',
  {
    id: text('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    videoId: integer('video_id').references(() => videos.id, { onDelete: 'set null' }),
    size: bigint('size', { mode: 'number' }).notNull(),
    offset: bigint('offset', { mode: 'number' }).notNull().default(0),
    metadata: jsonb('metadata').$type<Record<string, string>>(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('upload_sessions_user').on(t.userId)],
);

/** Small key/value facts about this installation, e.g. when demo seeding finished. */
export const appMeta = pgTable('app_meta', {
  key: text('key').primaryKey(),
  value: jsonb('value'),
  updatedAt: updatedAt(),
});

/**
 * The people who run the platform (server/admin). Apart from `users`: an operator has no public profile, no
 * viewer's session works on the console and no operator's session works in the app. Never deleted, so that
 * the audit log keeps naming who did what: removal sets `removed_at`.
 */
export const operators = pgTable(
  'operators',
  {
    id: serial('id').primaryKey(),
    email: text('email').notNull(),
    role: text('role', { enum: ['moderator', 'admin'] }).notNull(),
    /** Null until the operator has followed the sign-in link and chosen one. */
    passwordHash: text('password_hash'),
    /**
     * Base32 TOTP key, null until set up. The server must read it to check codes, so it cannot be hashed:
     * whoever reads this table holds the second factor (keep backups as private as the database).
     */
    totpSecret: text('totp_secret'),
    /** The 30-second step of the last code accepted: a code seen once is refused after (RFC 6238 §5.2). */
    totpLastStep: bigint('totp_last_step', { mode: 'number' }),
    /** SHA-256 of each unused recovery code; a code used is taken out. */
    recoveryCodes: jsonb('recovery_codes').$type<string[]>().notNull().default([]),
    lastSignInAt: timestamp('last_sign_in_at', { withTimezone: true }),
    removedAt: timestamp('removed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  // One live operator per address; a removed one keeps its row (and its lines in the log) beside a new one.
  (t) => [uniqueIndex('operators_email_lower').on(sql`lower(${t.email})`).where(sql`${t.removedAt} is null`)],
);

/**
 * The steps of an operator's sign-in, each a random token stored hashed: `invite` (the link the CLI prints),
 * `setup` (choosing the password and the TOTP key), `totp` (the password was right; the code comes next).
 */
export const operatorChallenges = pgTable(
  'operator_challenges',
  {
    id: serial('id').primaryKey(),
    operatorId: integer('operator_id')
      .notNull()
      .references(() => operators.id),
    kind: text('kind', { enum: ['invite', 'setup', 'totp'] }).notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    /** The key being set up: shown as a QR code, kept here until the first code proves it was scanned. */
    pendingSecret: text('pending_secret'),
    /** Wrong codes sent with this challenge: a few, then it is dead. */
    failures: smallint('failures').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('operator_challenges_operator').on(t.operatorId)],
);

/** An operator's console session: 12 hours at most, and ended by 30 minutes without a call. */
export const operatorSessions = pgTable(
  'operator_sessions',
  {
    id: serial('id').primaryKey(),
    operatorId: integer('operator_id')
      .notNull()
      .references(() => operators.id),
    tokenHash: text('token_hash').notNull().unique(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('operator_sessions_operator').on(t.operatorId)],
);

/**
 * Every operator decision and every view of an identity document: who, when, what, on which item, why.
 * Append only: no code path updates or deletes a row, and a trigger refuses it (migration 0010).
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** Null for the operator CLI, which runs as whoever has the server's shell. */
    operatorId: integer('operator_id').references(() => operators.id),
    /** Who, as it read at the time: the operator's email, or `cli`. */
    actor: text('actor').notNull(),
    action: text('action').notNull(),
    targetType: text('target_type').notNull(),
    targetId: text('target_id').notNull(),
    reason: text('reason'),
    detail: jsonb('detail').$type<Record<string, unknown>>(),
    ip: text('ip'),
    createdAt: createdAt(),
  },
  (t) => [
    index('audit_log_created').on(t.createdAt),
    index('audit_log_operator').on(t.operatorId, t.createdAt),
    index('audit_log_action').on(t.action, t.createdAt),
  ],
);

/** A video as its table holds it: what the lists, the uploads and the media pipeline read. */
export type VideoRow = typeof videos.$inferSelect;
