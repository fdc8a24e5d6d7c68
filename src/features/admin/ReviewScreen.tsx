import { useEffect, useState } from 'react';
import { approveUpload, fetchReviewQueue, rejectUpload } from '../../api/admin';
import { type ReviewItem, rejectVideoSchema, videoRejectReasons } from '../../contract/admin';
import { useEffectEvent } from '../../state/effectEvent';
import { useForm } from '../../ui/form';
import { formatDuration } from '../../ui/format';
import { CheckIcon } from '../../ui/more-icons';
import { DecisionDialog, decide, ReasonFields } from './DecisionDialog';
import { InboxIcon, XCircleIcon } from './icons';
import {
  Badge,
  CreatorBlock,
  Empty,
  Facts,
  Failed,
  FlashLine,
  isNarrow,
  isShortcutBlocked,
  Loading,
  LoadMore,
  Page,
  revealInList,
  TimeAgo,
} from './parts';
import { useConsole } from './session';
import { formatDateTime } from './time';
import { useConsoleList } from './useConsoleList';
import { useDecisionQueue } from './useDecisionQueue';
import { VideoPlayer } from './VideoPlayer';
import './screens.css';

/**
 * /admin/review: uploads waiting for a decision, oldest first. One item is open at a time, playable, beside
 * the queue; J / K walk the queue, A approves, R opens the rejection. A decided item leaves and the next one
 * opens, so a run through the queue is a series of keystrokes.
 */
export function ReviewScreen() {
  const { call } = useConsole();
  const list = useConsoleList('review', fetchReviewQueue, (item: ReviewItem) => item.id);
  const queue = useDecisionQueue(list);
  const { items, index, selected, setSelectedId, busy, flash, show, detail, decided, conflict } = queue;
  const [rejecting, setRejecting] = useState<ReviewItem | null>(null);

  // The item in view follows J / K in the queue's column.
  const selectedKey = selected?.id;
  useEffect(() => {
    if (selectedKey !== undefined) revealInList(document.getElementById(`admin-review-item-${selectedKey}`));
  }, [selectedKey]);

  const approve = (item: ReviewItem) =>
    queue.act(
      item,
      () => call((token) => approveUpload(token, item.id)),
      item.review === 'held' ? `Approved “${item.title}”. It is public now.` : `Approved “${item.title}”.`,
    );

  const move = (by: number) => {
    const next = items[index + by];
    if (next) setSelectedId(next.id);
    else if (by > 0 && list.next) list.loadMore();
  };

  const onKey = useEffectEvent((event: KeyboardEvent) => {
    if (isShortcutBlocked(event) || !selected) return;
    const key = event.key.toLowerCase();
    if (key === 'j') move(1);
    else if (key === 'k') move(-1);
    else if (key === 'a') void approve(selected);
    else if (key === 'r') setRejecting(selected);
    else return;
    event.preventDefault();
  });
  useEffect(() => {
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  const waiting = list.status === 'ready' ? `${items.length}${list.next ? '+' : ''} waiting` : undefined;

  return (
    <Page title="Review" lead="Uploads waiting for a decision, oldest first." className="admin-review-page">
      <FlashLine flash={flash} onDismiss={() => show(null)} />
      {list.status === 'loading' ? (
        <Loading />
      ) : list.status === 'error' ? (
        <Failed title="The queue did not load" error={list.error} onRetry={list.retry} />
      ) : !selected ? (
        <Empty
          title="Nothing waits for review."
          text="New uploads appear here once they are transcoded."
          icon={<InboxIcon />}
        />
      ) : (
        <div className="admin-split">
          <section className="admin-split-list" aria-labelledby="admin-review-queue">
            <h2 id="admin-review-queue" className="admin-column-title">
              Queue <span className="admin-column-count">{waiting}</span>
            </h2>
            <ul className="admin-queue">
              {items.map((item) => (
                <li key={item.id}>
                  <button
                    type="button"
                    id={`admin-review-item-${item.id}`}
                    className="admin-queue-item"
                    aria-current={item.id === selected.id ? 'true' : undefined}
                    onClick={() => {
                      setSelectedId(item.id);
                      if (isNarrow()) detail.current?.scrollIntoView({ block: 'start' });
                    }}
                  >
                    <span className="admin-queue-thumb">
                      {item.poster && <img src={item.poster} alt="" loading="lazy" />}
                    </span>
                    <span className="admin-queue-text">
                      <span className="admin-queue-title">{item.title || 'Untitled'}</span>
                      <span className="admin-queue-meta">
                        {item.creator.name} · <TimeAgo iso={item.queuedAt} />
                      </span>
                      <span className="admin-badges">
                        {item.review === 'held' ? (
                          <Badge tone="warn">Held back</Badge>
                        ) : (
                          <Badge tone="info">Public</Badge>
                        )}
                        {item.isNsfw && <Badge tone="danger">NSFW</Badge>}
                      </span>
                    </span>
                  </button>
                </li>
              ))}
            </ul>
            <LoadMore
              next={list.next}
              loadingMore={list.loadingMore}
              moreError={list.moreError}
              onMore={list.loadMore}
            />
            <section className="admin-keys" aria-labelledby="admin-review-keys">
              <h3 id="admin-review-keys" className="admin-subtitle">
                Keyboard
              </h3>
              <dl>
                <div>
                  <dt>
                    <kbd>J</kbd>
                  </dt>
                  <dd>Next</dd>
                </div>
                <div>
                  <dt>
                    <kbd>K</kbd>
                  </dt>
                  <dd>Previous</dd>
                </div>
                <div>
                  <dt>
                    <kbd>A</kbd>
                  </dt>
                  <dd>Approve</dd>
                </div>
                <div>
                  <dt>
                    <kbd>R</kbd>
                  </dt>
                  <dd>Reject…</dd>
                </div>
              </dl>
            </section>
          </section>
          <article className="admin-split-detail" ref={detail} aria-labelledby="admin-review-title">
            <div className="admin-media-body">
              <VideoPlayer
                key={selected.id}
                playlistUrl={selected.playlistUrl}
                renditions={selected.renditions}
                poster={selected.poster}
                title={selected.title}
              />
              <div className="admin-detail-main">
                <h2 id="admin-review-title" className="admin-detail-title">
                  {selected.title || 'Untitled'}
                </h2>
                <p className="admin-badges">
                  {selected.review === 'held' ? (
                    <Badge tone="warn">Held back until approved</Badge>
                  ) : (
                    <Badge tone="info">Already public</Badge>
                  )}
                  {selected.isNsfw ? <Badge tone="danger">NSFW</Badge> : <Badge>Not NSFW</Badge>}
                </p>
                {selected.tags.length > 0 ? (
                  <ul className="admin-tags" aria-label="Tags">
                    {selected.tags.map((tag) => (
                      <li key={tag}>#{tag}</li>
                    ))}
                  </ul>
                ) : (
                  <p className="admin-muted">No tags.</p>
                )}
                <Facts
                  items={[
                    [
                      'Uploaded',
                      <time key="uploaded" dateTime={selected.uploadedAt}>
                        {formatDateTime(selected.uploadedAt)}
                      </time>,
                    ],
                    ['Waiting since', <TimeAgo key="waiting" iso={selected.queuedAt} />],
                    ['Length', formatDuration(selected.duration)],
                    ['Video id', String(selected.id)],
                  ]}
                />
                <CreatorBlock creator={selected.creator} />
              </div>
            </div>
            <div className="admin-decide">
              <p className="admin-decide-what">
                <span className="admin-muted">
                  {index + 1} of {items.length}
                  {list.next ? '+' : ''}
                </span>
                <span className="admin-decide-title">{selected.title || 'Untitled'}</span>
              </p>
              <div className="admin-decide-buttons">
                <button
                  type="button"
                  className="btn btn-danger"
                  aria-keyshortcuts="R"
                  onClick={() => setRejecting(selected)}
                  disabled={busy}
                >
                  <XCircleIcon aria-hidden="true" />
                  Reject
                </button>
                <button
                  type="button"
                  className="btn btn-primary"
                  aria-keyshortcuts="A"
                  onClick={() => void approve(selected)}
                  disabled={busy}
                  aria-busy={busy}
                >
                  <CheckIcon aria-hidden="true" />
                  Approve
                </button>
              </div>
            </div>
          </article>
        </div>
      )}
      {rejecting && (
        <RejectDialog
          item={rejecting}
          onClose={() => setRejecting(null)}
          onDone={() => {
            setRejecting(null);
            decided(rejecting, `Rejected “${rejecting.title}”. The creator gets an email with the reason.`);
          }}
          onConflict={() => {
            setRejecting(null);
            conflict();
          }}
        />
      )}
    </Page>
  );
}

function RejectDialog({
  item,
  onClose,
  onDone,
  onConflict,
}: {
  item: ReviewItem;
  onClose: () => void;
  onDone: () => void;
  onConflict: () => void;
}) {
  const { call } = useConsole();
  const form = useForm({
    schema: rejectVideoSchema,
    initial: { reason: '', note: '' },
    onSubmit: async (input) => {
      if (await decide(() => call((token) => rejectUpload(token, item.id, input)), onConflict)) onDone();
    },
  });
  return (
    <DecisionDialog
      title="Reject this upload"
      lead={`“${item.title}” by ${item.creator.name}. The creator reads the reason and your note in an email.`}
      form={form}
      submitLabel="Reject upload"
      danger
      onClose={onClose}
    >
      <ReasonFields form={form} reasons={videoRejectReasons} />
    </DecisionDialog>
  );
}
