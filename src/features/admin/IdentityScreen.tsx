import { useEffect, useRef, useState } from 'react';
import {
  approveVerification,
  documentPath,
  fetchPrivateFile,
  fetchVerifications,
  rejectVerification,
} from '../../api/admin';
import {
  type DocumentKind,
  documentKinds,
  rejectVerificationSchema,
  type VerificationItem,
  verificationRejectReasons,
} from '../../contract/admin';
import { useForm } from '../../ui/form';
import { CheckIcon } from '../../ui/more-icons';
import { Sheet } from '../../ui/Sheet';
import { Spinner } from '../../ui/Spinner';
import { LoadFailed } from '../../ui/StateMessage';
import { DecisionDialog, decide, ReasonFields } from './DecisionDialog';
import { IdCardIcon, XCircleIcon } from './icons';
import {
  Badge,
  CreatorBlock,
  Empty,
  Facts,
  Failed,
  FlashLine,
  isNarrow,
  Loading,
  LoadMore,
  Page,
  reasonText,
  TimeAgo,
} from './parts';
import { useConsole } from './session';
import { formatDateTime, formatDay } from './time';
import { useConsoleList } from './useConsoleList';
import { useDecisionQueue } from './useDecisionQueue';
import './identity.css';
import './screens.css';

const documentWords: Record<DocumentKind, string> = {
  front: 'Front of the document',
  back: 'Back of the document',
  face: 'Selfie with the document',
  signature: 'Signature',
};
const identificationWords: Record<VerificationItem['identification'], string> = {
  passport: 'Passport',
  idcard: 'ID card',
  driver: 'Driver’s licence',
};
const genderWords: Record<string, string> = { m: 'Male', t: 'Trans' };

let regionNames: Intl.DisplayNames | undefined;
const countryName = (code: string) => {
  try {
    regionNames ??= new Intl.DisplayNames(['en'], { type: 'region' });
    return `${regionNames.of(code.toUpperCase()) ?? code} (${code.toUpperCase()})`;
  } catch {
    return code.toUpperCase();
  }
};

/**
 * The four images of the check on screen, each read once through the session (the server writes every read
 * to the audit log): the blobs are kept while the screen is open, so walking back to an item, or React
 * mounting an effect twice, reads nothing again.
 */
type DocumentCache = Map<string, Promise<Blob>>;

/** /admin/identity: pending identity checks, oldest first, one open at a time with its documents. */
export function IdentityScreen() {
  const { call } = useConsole();
  const list = useConsoleList('verifications', fetchVerifications, (item: VerificationItem) => item.id);
  const queue = useDecisionQueue(list);
  const { items, selected, setSelectedId, busy, flash, show, detail, conflict } = queue;
  const [rejecting, setRejecting] = useState<VerificationItem | null>(null);
  const cache = useRef<DocumentCache>(new Map());

  /** A decided check's images are let go with it: nobody opens them again from this screen. */
  const decided = (item: VerificationItem, text: string) => {
    for (const kind of documentKinds) cache.current.delete(`${item.id}:${kind}`);
    queue.decided(item, text);
  };
  const approve = (item: VerificationItem) =>
    queue.act(
      item,
      async () => {
        await call((token) => approveVerification(token, item.id));
        for (const kind of documentKinds) cache.current.delete(`${item.id}:${kind}`);
      },
      `Approved the identity of ${item.legalName}. ${item.creator.name} gets an email.`,
    );

  return (
    <Page title="Identity checks" lead="Creators waiting for their identity to be confirmed, oldest first.">
      <FlashLine flash={flash} onDismiss={() => show(null)} />
      {list.status === 'loading' ? (
        <Loading />
      ) : list.status === 'error' ? (
        <Failed title="The identity checks did not load" error={list.error} onRetry={list.retry} />
      ) : !selected ? (
        <Empty
          title="No identity check waits."
          text="Creators’ requests appear here as they send them."
          icon={<IdCardIcon />}
        />
      ) : (
        <div className="admin-split is-strip">
          <section className="admin-split-list" aria-labelledby="admin-identity-queue">
            <h2 id="admin-identity-queue" className="admin-column-title">
              Waiting{' '}
              <span className="admin-column-count">
                {items.length}
                {list.next ? '+' : ''}
              </span>
            </h2>
            <ul className="admin-queue">
              {items.map((item) => (
                <li key={item.id}>
                  <button
                    type="button"
                    className="admin-queue-item is-text"
                    aria-current={item.id === selected.id ? 'true' : undefined}
                    onClick={() => {
                      setSelectedId(item.id);
                      if (isNarrow()) detail.current?.scrollIntoView({ block: 'start' });
                    }}
                  >
                    <span className="admin-avatar" aria-hidden="true">
                      {item.legalName.charAt(0).toUpperCase()}
                    </span>
                    <span className="admin-queue-text">
                      <span className="admin-queue-title">{item.legalName}</span>
                      <span className="admin-queue-meta">
                        {item.creator.name} · <TimeAgo iso={item.createdAt} />
                      </span>
                      {item.previous.length > 0 && (
                        <span className="admin-badges">
                          <Badge tone="warn">
                            {item.previous.length} earlier{' '}
                            {item.previous.length === 1 ? 'request' : 'requests'}
                          </Badge>
                        </span>
                      )}
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
          </section>
          <article className="admin-split-detail" ref={detail} aria-labelledby="admin-identity-title">
            <Check key={selected.id} item={selected} cache={cache.current} />
            <div className="admin-decide">
              <p className="admin-decide-note">
                Compare the typed details with the document and the selfie before you decide.
              </p>
              <div className="admin-decide-buttons">
                <button
                  type="button"
                  className="btn btn-danger"
                  onClick={() => setRejecting(selected)}
                  disabled={busy}
                >
                  <XCircleIcon aria-hidden="true" />
                  Reject
                </button>
                <button
                  type="button"
                  className="btn btn-primary"
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
            decided(rejecting, `Rejected the identity check of ${rejecting.legalName}. They get an email.`);
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

function Check({ item, cache }: { item: VerificationItem; cache: DocumentCache }) {
  return (
    <>
      <header className="admin-identity-head">
        <h2 id="admin-identity-title" className="admin-detail-title">
          {item.legalName}
        </h2>
        <p className="admin-muted">
          Sent <TimeAgo iso={item.createdAt} /> · request {item.id}
        </p>
      </header>
      <div className="admin-identity">
        <section className="admin-identity-facts" aria-labelledby="admin-identity-typed">
          <h3 id="admin-identity-typed" className="admin-subtitle">
            What they typed
          </h3>
          <Facts
            className="is-stacked"
            items={[
              ['Legal name', item.legalName],
              ['Stage name', item.stageName],
              ['Birthday', `${formatDay(item.dateOfBirth)} · ${item.age} years old`],
              ['Document', identificationWords[item.identification]],
              ['Document number', <code key="number">{item.identificationId}</code>],
              ['Gender', genderWords[item.gender] ?? item.gender],
              ['Country', countryName(item.country)],
              ['Address', item.address],
            ]}
          />
          <CreatorBlock creator={item.creator} heading="Account" />
          {item.previous.length > 0 && (
            <section className="admin-previous" aria-labelledby="admin-identity-previous">
              <h3 id="admin-identity-previous" className="admin-subtitle">
                Earlier requests
              </h3>
              <ul>
                {item.previous.map((p) => (
                  <li key={p.createdAt}>
                    <p>
                      <Badge tone={p.status === 'rejected' ? 'danger' : 'muted'}>
                        {p.status === 'rejected' ? 'Rejected' : p.status}
                      </Badge>{' '}
                      <time dateTime={p.createdAt} className="admin-muted">
                        {formatDateTime(p.createdAt)}
                      </time>
                    </p>
                    {p.reason && <p>{reasonText(p.reason, verificationRejectReasons)}</p>}
                  </li>
                ))}
              </ul>
            </section>
          )}
        </section>
        <section className="admin-identity-docs" aria-labelledby="admin-identity-images">
          <h3 id="admin-identity-images" className="admin-subtitle">
            Documents
          </h3>
          <ul className="admin-docs">
            {documentKinds.map((kind) => (
              <li key={kind}>
                <DocumentImage itemId={item.id} kind={kind} cache={cache} />
              </li>
            ))}
          </ul>
        </section>
      </div>
    </>
  );
}

/** One document image from its audited address, as an object URL that lives as long as it is shown. */
function DocumentImage({
  itemId,
  kind,
  cache,
}: {
  itemId: number;
  kind: DocumentKind;
  cache: DocumentCache;
}) {
  const { call } = useConsole();
  const [state, setState] = useState<{ url?: string; error?: unknown }>({});
  const [attempt, setAttempt] = useState(0);
  const [enlarged, setEnlarged] = useState(false);
  const label = documentWords[kind];

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` is the retry.
  useEffect(() => {
    const name = `${itemId}:${kind}`;
    let request = cache.get(name);
    if (!request) {
      request = call((token) => fetchPrivateFile(token, documentPath(itemId, kind)));
      cache.set(name, request);
      // A failed read is tried again on Retry, not served from the cache.
      request.catch(() => cache.delete(name));
    }
    let url: string | undefined;
    let active = true;
    setState({});
    request.then(
      (blob) => {
        if (!active) return;
        url = URL.createObjectURL(blob);
        setState({ url });
      },
      (error: unknown) => active && setState({ error }),
    );
    return () => {
      active = false;
      if (url) URL.revokeObjectURL(url);
    };
  }, [itemId, kind, cache, call, attempt]);

  return (
    <figure className="admin-doc">
      <div className="admin-doc-frame">
        {state.url ? (
          <button
            type="button"
            className="admin-doc-open"
            aria-label={`Enlarge: ${label}`}
            onClick={() => setEnlarged(true)}
          >
            <img src={state.url} alt={label} />
          </button>
        ) : state.error ? (
          <LoadFailed
            compact
            title="The document did not load"
            error={state.error}
            onRetry={() => setAttempt((n) => n + 1)}
          />
        ) : (
          <Spinner />
        )}
      </div>
      <figcaption>{label}</figcaption>
      {enlarged && state.url && (
        <Sheet title={label} onClose={() => setEnlarged(false)} className="admin-lightbox">
          <img src={state.url} alt={label} className="admin-lightbox-image" />
          <button type="button" className="btn btn-ghost" onClick={() => setEnlarged(false)}>
            Close
          </button>
        </Sheet>
      )}
    </figure>
  );
}

function RejectDialog({
  item,
  onClose,
  onDone,
  onConflict,
}: {
  item: VerificationItem;
  onClose: () => void;
  onDone: () => void;
  onConflict: () => void;
}) {
  const { call } = useConsole();
  const form = useForm({
    schema: rejectVerificationSchema,
    initial: { reason: '', note: '' },
    onSubmit: async (input) => {
      if (await decide(() => call((token) => rejectVerification(token, item.id, input)), onConflict))
        onDone();
    },
  });
  return (
    <DecisionDialog
      title="Reject this identity check"
      lead={`${item.legalName} (${item.creator.name}) reads the reason and your note in an email, and may send new documents.`}
      form={form}
      submitLabel="Reject identity check"
      danger
      onClose={onClose}
    >
      <ReasonFields form={form} reasons={verificationRejectReasons} />
    </DecisionDialog>
  );
}
