import { useState } from 'react';
import { dismissReports, fetchReports, takeDownVideo } from '../../api/admin';
import {
  adminMessages,
  dismissReportsSchema,
  type ReportGroup,
  takeDownSchema,
  videoRejectReasons,
} from '../../contract/admin';
import type { ReportReason } from '../../contract/interactions';
import { reportReasonLabels } from '../../contract/report-labels';
import { CheckboxField, TextAreaField, useForm } from '../../ui/form';
import { useCounts } from './counts';
import { DecisionDialog, decide, ReasonFields } from './DecisionDialog';
import { FlagIcon } from './icons';
import {
  Badge,
  CreatorBlock,
  Empty,
  Failed,
  FlashLine,
  Loading,
  LoadMore,
  Page,
  TimeAgo,
  useFlash,
} from './parts';
import { useConsole } from './session';
import { useConsoleList } from './useConsoleList';
import { VideoPlayer } from './VideoPlayer';
import './screens.css';

/** Reasons that call for a look first, whatever the count. */
const urgent = new Set(['underage', 'consent', 'rape-sexual-assault', 'deepfake']);

type Deciding = { kind: 'dismiss' | 'take-down'; group: ReportGroup } | null;

/** /admin/reports: reported videos, most reported first, each with every open report about it. */
export function ReportsScreen() {
  const counts = useCounts();
  const list = useConsoleList('reports', fetchReports, (group: ReportGroup) => group.video.id);
  const [deciding, setDeciding] = useState<Deciding>(null);
  const { flash, show } = useFlash();

  const done = (group: ReportGroup, text: string) => {
    setDeciding(null);
    list.remove(group.video.id);
    show({ tone: 'ok', text });
    counts.refresh();
  };
  const conflict = () => {
    setDeciding(null);
    show({ tone: 'error', text: adminMessages.notWaiting });
    list.reload();
    counts.refresh();
  };

  return (
    <Page title="Reports" lead="Videos viewers reported, most reported first.">
      <FlashLine flash={flash} onDismiss={() => show(null)} />
      {list.status === 'loading' ? (
        <Loading />
      ) : list.status === 'error' ? (
        <Failed title="The reports did not load" error={list.error} onRetry={list.retry} />
      ) : list.items.length === 0 ? (
        <Empty title="No open reports." text="Reported videos appear here." icon={<FlagIcon />} />
      ) : (
        <>
          <ul className="admin-report-list">
            {list.items.map((group) => (
              <li key={group.video.id}>
                <ReportCard
                  group={group}
                  onDismiss={() => setDeciding({ kind: 'dismiss', group })}
                  onTakeDown={() => setDeciding({ kind: 'take-down', group })}
                />
              </li>
            ))}
          </ul>
          <LoadMore
            next={list.next}
            loadingMore={list.loadingMore}
            moreError={list.moreError}
            onMore={list.loadMore}
          />
        </>
      )}
      {deciding?.kind === 'dismiss' && (
        <DismissDialog
          group={deciding.group}
          onClose={() => setDeciding(null)}
          onDone={() => done(deciding.group, `Dismissed the reports about “${deciding.group.video.title}”.`)}
          onConflict={conflict}
        />
      )}
      {deciding?.kind === 'take-down' && (
        <TakeDownDialog
          group={deciding.group}
          onClose={() => setDeciding(null)}
          onDone={(suspended) =>
            done(
              deciding.group,
              `Took “${deciding.group.video.title}” down${suspended ? ` and suspended ${deciding.group.video.creator.name}` : ''}.`,
            )
          }
          onConflict={conflict}
        />
      )}
    </Page>
  );
}

function ReportCard({
  group,
  onDismiss,
  onTakeDown,
}: {
  group: ReportGroup;
  onDismiss: () => void;
  onTakeDown: () => void;
}) {
  const { video } = group;
  const titleId = `admin-report-${video.id}`;
  return (
    <article className="admin-card admin-report" aria-labelledby={titleId}>
      <div className="admin-report-media">
        <VideoPlayer playlistUrl={video.playlistUrl} poster={video.poster} title={video.title} />
      </div>
      <div className="admin-report-body">
        <header className="admin-report-head">
          <h2 id={titleId} className="admin-detail-title">
            {video.title || 'Untitled'}
          </h2>
          <p className="admin-badges">
            <Badge tone="danger">
              {group.count} {group.count === 1 ? 'report' : 'reports'}
            </Badge>
            {video.status !== 'approved' && <Badge tone="warn">Status: {video.status}</Badge>}
            <span className="admin-muted">
              latest <TimeAgo iso={group.latestAt} />
            </span>
          </p>
        </header>
        <CreatorBlock creator={video.creator} />
        <h3 className="admin-subtitle">What viewers said</h3>
        <ul className="admin-report-items">
          {group.reports.map((report) => (
            <li key={report.id} className="admin-report-item">
              <p className="admin-report-item-head">
                <strong className={urgent.has(report.reason) ? 'admin-urgent' : undefined}>
                  {reportReasonLabels[report.reason as ReportReason] ?? report.reason}
                </strong>
                <span className="admin-muted">
                  <TimeAgo iso={report.createdAt} />
                </span>
              </p>
              {report.message && <p className="admin-report-message">{report.message}</p>}
              <p className="admin-muted admin-report-email">{report.email ?? 'No email given'}</p>
            </li>
          ))}
        </ul>
        <div className="admin-card-actions">
          <button type="button" className="btn btn-ghost" onClick={onDismiss}>
            Dismiss
          </button>
          <button type="button" className="btn btn-danger" onClick={onTakeDown}>
            Take down
          </button>
        </div>
      </div>
    </article>
  );
}

function DismissDialog({
  group,
  onClose,
  onDone,
  onConflict,
}: {
  group: ReportGroup;
  onClose: () => void;
  onDone: () => void;
  onConflict: () => void;
}) {
  const { call } = useConsole();
  const form = useForm({
    schema: dismissReportsSchema,
    initial: { note: '' },
    onSubmit: async (input) => {
      if (await decide(() => call((t) => dismissReports(t, group.video.id, input)), onConflict)) onDone();
    },
  });
  return (
    <DecisionDialog
      title="Dismiss the reports"
      lead={`“${group.video.title}” stays online and its ${group.count} ${group.count === 1 ? 'report is' : 'reports are'} closed.`}
      form={form}
      submitLabel="Dismiss reports"
      onClose={onClose}
    >
      <TextAreaField
        form={form}
        name="note"
        label="Note"
        hint="Why the reports need no action. Kept in the audit log for the next operator."
        maxLength={2000}
        rows={3}
      />
    </DecisionDialog>
  );
}

function TakeDownDialog({
  group,
  onClose,
  onDone,
  onConflict,
}: {
  group: ReportGroup;
  onClose: () => void;
  onDone: (suspended: boolean) => void;
  onConflict: () => void;
}) {
  const { call } = useConsole();
  const { creator } = group.video;
  const form = useForm({
    schema: takeDownSchema,
    initial: { reason: '', note: '', suspend: false },
    onSubmit: async (input) => {
      if (await decide(() => call((t) => takeDownVideo(t, group.video.id, input)), onConflict))
        onDone(input.suspend);
    },
  });
  return (
    <DecisionDialog
      title="Take this video down"
      lead={`“${group.video.title}” by ${creator.name} leaves every list. The creator reads the reason and your note in an email.`}
      form={form}
      submitLabel="Take video down"
      danger
      onClose={onClose}
    >
      <ReasonFields form={form} reasons={videoRejectReasons} />
      {creator.suspended ? (
        <p className="admin-muted">{creator.name}’s account is already suspended.</p>
      ) : (
        <CheckboxField
          form={form}
          name="suspend"
          label="Also suspend the creator"
          hint={`Signs ${creator.name} out everywhere and hides their profile and all their videos.`}
        />
      )}
    </DecisionDialog>
  );
}
