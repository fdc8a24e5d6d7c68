import { useEffect, useRef, useState } from 'react';
import * as v from 'valibot';
import { auditCsvPath, fetchAudit, fetchOperators, fetchPrivateFile } from '../../api/admin';
import { errorText } from '../../api/errors';
import {
  type AuditAction,
  type AuditEntry,
  type AuditQuery,
  auditActions,
  auditQuerySchema,
} from '../../contract/admin';
import { CheckboxField, DateField, Form, type Option, SelectField, useForm } from '../../ui/form';
import { Link } from '../../ui/Link';
import { DownloadIcon } from '../../ui/more-icons';
import { ListIcon } from './icons';
import { Empty, Failed, Loading, LoadMore, Page } from './parts';
import { useConsole } from './session';
import { formatDateTime } from './time';
import { useConsoleList } from './useConsoleList';
import './audit.css';

type Filters = Omit<AuditQuery, 'cursor'>;

const actionOptions: Option[] = (Object.keys(auditActions) as AuditAction[]).map((value) => ({
  value,
  label: auditActions[value],
}));

const documentWords: Record<string, string> = {
  front: 'front',
  back: 'back',
  face: 'selfie',
  signature: 'signature',
};

const targetWords: Record<string, string> = {
  video: 'Video',
  user: 'Account',
  verification: 'Identity check',
  operator: 'Operator',
};

/** The filters as typed, once they make a valid query; a half-typed date keeps the last valid one. */
function filtersOf(values: { action: string; from: string; to: string; operator: string }): Filters | null {
  const parsed = v.safeParse(auditQuerySchema, values);
  if (!parsed.success) return null;
  const { cursor: _none, ...filters } = parsed.output;
  return filters;
}

/**
 * /admin/audit: every decision and every view of an ID document, newest first, 50 at a time. The filters
 * apply as they change. Admins pick any operator and export what is shown as CSV; moderators can narrow
 * the log to their own actions.
 */
export function AuditScreen() {
  const { call, isAdmin, session } = useConsole();
  const form = useForm({
    schema: auditQuerySchema,
    initial: { action: '', from: '', to: '', operator: '', mine: false },
    onSubmit: () => undefined,
  });
  const { values } = form;
  const operator = isAdmin ? values.operator : values.mine ? String(session.operator.id) : '';
  const latest = filtersOf({ ...values, operator });
  const latestKey = JSON.stringify(latest);
  // What the list shows: the last valid filters (the first render's, at once, so the log loads once).
  const [filters, setFilters] = useState<Filters>(() => latest ?? {});

  // biome-ignore lint/correctness/useExhaustiveDependencies: the key stands for the filters it was made of.
  useEffect(() => {
    if (latest) setFilters(latest);
  }, [latestKey]);

  const key = JSON.stringify(filters);
  const list = useConsoleList(
    `audit\u0000${key}`,
    (token, next) => fetchAudit(token, filters, next),
    (entry: AuditEntry) => entry.id,
  );

  const [operators, setOperators] = useState<Option[]>([]);
  useEffect(() => {
    if (!isAdmin) return;
    let active = true;
    call(fetchOperators).then(
      ({ data }) =>
        active && setOperators(data.map((o) => ({ value: String(o.id), label: `${o.email} (${o.role})` }))),
      // Without the list, the log still shows everyone's actions; the filter waits for a reload.
      () => undefined,
    );
    return () => {
      active = false;
    };
  }, [isAdmin, call]);

  const filtered = Object.values(filters).some(Boolean);

  return (
    <Page
      title="Audit log"
      lead="Every decision and every view of an ID document, newest first."
      actions={isAdmin && <ExportCsv filters={filters} />}
    >
      <Form form={form} className="admin-filters" aria-label="Filter the log">
        <SelectField
          form={form}
          name="action"
          label="Action"
          placeholder="All actions"
          options={actionOptions}
        />
        {isAdmin ? (
          <SelectField
            form={form}
            name="operator"
            label="Operator"
            placeholder="All operators"
            options={operators}
          />
        ) : (
          <CheckboxField form={form} name="mine" label="Only my actions" className="admin-filter-check" />
        )}
        <DateField form={form} name="from" label="From date" max={values.to || undefined} />
        <DateField form={form} name="to" label="To date" min={values.from || undefined} />
        {filtered && (
          <button type="button" className="btn btn-ghost admin-filter-clear" onClick={() => form.reset()}>
            Clear filters
          </button>
        )}
      </Form>
      {list.status === 'loading' ? (
        <Loading />
      ) : list.status === 'error' ? (
        <Failed title="The log did not load" error={list.error} onRetry={list.retry} />
      ) : list.items.length === 0 ? (
        <Empty
          title={filtered ? 'Nothing matches these filters.' : 'The log is empty.'}
          text={filtered ? 'Try a wider date range or another action.' : undefined}
          icon={<ListIcon />}
        />
      ) : (
        <>
          <table className="admin-table admin-audit">
            <caption className="visually-hidden">Audit log, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Operator</th>
                <th scope="col">Action</th>
                <th scope="col">Target</th>
                <th scope="col">Reason</th>
              </tr>
            </thead>
            <tbody>
              {list.items.map((entry) => (
                <tr key={entry.id}>
                  <td data-label="Time" className="admin-audit-time">
                    <time dateTime={entry.at}>{formatDateTime(entry.at)}</time>
                  </td>
                  <td data-label="Operator" className="admin-audit-actor">
                    <Actor name={entry.actor} />
                  </td>
                  <th scope="row" data-label="Action" className="admin-audit-action">
                    {auditActions[entry.action as AuditAction] ?? entry.action}
                  </th>
                  <td data-label="Target">
                    <Target entry={entry} />
                  </td>
                  <td data-label="Reason" className="admin-audit-reason">
                    {entry.reason ?? <span className="admin-muted">—</span>}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <LoadMore
            next={list.next}
            loadingMore={list.loadingMore}
            moreError={list.moreError}
            onMore={list.loadMore}
          />
        </>
      )}
    </Page>
  );
}

/** An email may break before its @ in a narrow column, never inside a word. */
function Actor({ name }: { name: string }) {
  const at = name.indexOf('@');
  if (at <= 0) return name;
  return (
    <>
      {name.slice(0, at)}
      <wbr />
      {name.slice(at)}
    </>
  );
}

function Target({ entry }: { entry: AuditEntry }) {
  const words = `${targetWords[entry.targetType] ?? entry.targetType} ${entry.targetId}`;
  const title = typeof entry.detail?.title === 'string' ? entry.detail.title : null;
  const document = typeof entry.detail?.document === 'string' ? entry.detail.document : null;
  const creatorId = typeof entry.detail?.creatorId === 'number' ? entry.detail.creatorId : null;
  const userId =
    entry.targetType === 'user'
      ? entry.targetId
      : typeof entry.detail?.userId === 'number'
        ? String(entry.detail.userId)
        : creatorId !== null
          ? String(creatorId)
          : null;
  return (
    <span className="admin-audit-target">
      {userId ? <Link to={`/admin/accounts/${userId}`}>{words}</Link> : words}
      {title && <span className="admin-muted"> “{title}”</span>}
      {document && <span className="admin-muted"> · {documentWords[document] ?? document}</span>}
    </span>
  );
}

/**
 * The CSV of the filtered log, fetched with the session (never a token in a URL) and handed to the browser
 * as a download from an object URL, which goes when the screen does.
 */
function ExportCsv({ filters }: { filters: Filters }) {
  const { call } = useConsole();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [file, setFile] = useState<{ url: string; name: string } | null>(null);
  const link = useRef<HTMLAnchorElement>(null);

  useEffect(() => (file ? () => URL.revokeObjectURL(file.url) : undefined), [file]);
  useEffect(() => {
    if (file) link.current?.click();
  }, [file]);

  const exportCsv = async () => {
    setBusy(true);
    setFailure(null);
    try {
      const blob = await call((token) => fetchPrivateFile(token, auditCsvPath(filters)));
      setFile({
        url: URL.createObjectURL(blob),
        name: `audit-${new Date().toISOString().slice(0, 10)}.csv`,
      });
    } catch (error) {
      setFailure(errorText(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="admin-export">
      <button
        type="button"
        className="btn btn-ghost admin-small-btn"
        onClick={() => void exportCsv()}
        disabled={busy}
      >
        <DownloadIcon aria-hidden="true" />
        {busy ? 'Preparing…' : 'Export CSV'}
      </button>
      <div role="status" className="admin-export-note">
        {file && (
          <a ref={link} href={file.url} download={file.name}>
            Save {file.name} again
          </a>
        )}
      </div>
      <div role="alert" className="admin-export-note">
        {failure && <span className="admin-error-text">{failure}</span>}
      </div>
    </div>
  );
}
