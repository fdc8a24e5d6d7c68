import { useCallback, useEffect, useId, useState } from 'react';
import type * as v from 'valibot';
import { changeOperatorRole, createOperator, fetchOperators, removeOperator } from '../../api/admin';
import {
  changeRoleSchema,
  createOperatorSchema,
  type OperatorRole,
  type operatorListSchema,
} from '../../contract/admin';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { ChoiceField, Form, SelectField, SubmitButton, TextField, useForm } from '../../ui/form';
import { DecisionDialog } from './DecisionDialog';
import { CopyIcon, KeyIcon } from './icons';
import { Badge, Empty, Failed, FlashLine, Loading, Page, TimeAgo, useFlash } from './parts';
import { useConsole } from './session';
import './accounts.css';

type OperatorRow = v.InferOutput<typeof operatorListSchema>['data'][number];

const roleChoices = [
  {
    value: 'moderator',
    label: 'Moderator',
    description: 'Reviews uploads, reports and identity checks; suspends accounts.',
  },
  {
    value: 'admin',
    label: 'Admin',
    description: 'Also manages operators, lifts suspensions and exports the audit log.',
  },
];
const roleWords: Record<OperatorRole, string> = { moderator: 'Moderator', admin: 'Admin' };

type State =
  | { status: 'loading' }
  | { status: 'ready'; operators: OperatorRow[] }
  | { status: 'error'; error: unknown };

/** /admin/operators (admins): who may use the console, with which role; adding one gives a one-time link. */
export function OperatorsScreen() {
  const { call, session } = useConsole();
  const [state, setState] = useState<State>({ status: 'loading' });
  const [link, setLink] = useState<{ email: string; url: string } | null>(null);
  const [changing, setChanging] = useState<OperatorRow | null>(null);
  const [removing, setRemoving] = useState<OperatorRow | null>(null);
  const [removeBusy, setRemoveBusy] = useState(false);
  const { flash, show, fail } = useFlash();

  const load = useCallback(() => {
    call(fetchOperators).then(
      ({ data }) => setState({ status: 'ready', operators: data }),
      (error: unknown) => setState((s) => (s.status === 'ready' ? s : { status: 'error', error })),
    );
  }, [call]);
  useEffect(load, [load]);

  const invite = async (email: string, role: OperatorRole) => {
    const answer = await call((token) => createOperator(token, { email, role }));
    setLink({ email: answer.operator.email, url: answer.link });
    show(null);
    load();
  };

  const remove = async (operator: OperatorRow) => {
    setRemoveBusy(true);
    try {
      await call((token) => removeOperator(token, operator.id));
      show({ tone: 'ok', text: `Removed ${operator.email}. Their sessions have ended.` });
      load();
    } catch (error) {
      fail(error);
    } finally {
      setRemoveBusy(false);
      setRemoving(null);
    }
  };

  return (
    <Page title="Operators" lead="Who can use this console. Only admins see this page.">
      <FlashLine flash={flash} onDismiss={() => show(null)} />
      <div className="admin-operators">
        <section className="admin-card admin-operators-add" aria-labelledby="admin-add-operator">
          <h2 id="admin-add-operator" className="admin-subtitle">
            Add an operator
          </h2>
          {link ? <InviteLink link={link} onDone={() => setLink(null)} /> : <AddOperator onAdd={invite} />}
        </section>
        <section className="admin-operators-list" aria-labelledby="admin-operator-list">
          <h2 id="admin-operator-list" className="admin-section-title">
            Operators
          </h2>
          {state.status === 'loading' ? (
            <Loading />
          ) : state.status === 'error' ? (
            <Failed title="The operators did not load" error={state.error} onRetry={load} />
          ) : state.operators.length === 0 ? (
            <Empty title="No operators." icon={<KeyIcon />} />
          ) : (
            <ul className="admin-operator-rows">
              {state.operators.map((operator) => {
                const self = operator.id === session.operator.id;
                return (
                  <li key={operator.id} className="admin-card admin-operator-row">
                    <div className="admin-operator-who">
                      <p className="admin-operator-row-email">
                        {operator.email}
                        {self && <span className="admin-muted"> (you)</span>}
                      </p>
                      <p className="admin-badges">
                        <Badge tone={operator.role === 'admin' ? 'info' : 'muted'}>
                          {roleWords[operator.role]}
                        </Badge>
                        {operator.active ? (
                          <Badge tone="ok">Active</Badge>
                        ) : (
                          <Badge tone="warn">Has not signed in yet</Badge>
                        )}
                      </p>
                      <p className="admin-muted admin-operator-last">
                        {operator.lastSignInAt ? (
                          <TimeAgo iso={operator.lastSignInAt} prefix="Last signed in " />
                        ) : (
                          'Never signed in'
                        )}
                      </p>
                    </div>
                    {!self && (
                      <div className="admin-operator-actions">
                        {!operator.active && (
                          <button
                            type="button"
                            className="btn btn-ghost admin-small-btn"
                            onClick={() => void invite(operator.email, operator.role).catch(fail)}
                          >
                            New link<span className="visually-hidden"> for {operator.email}</span>
                          </button>
                        )}
                        <button
                          type="button"
                          className="btn btn-ghost admin-small-btn"
                          onClick={() => setChanging(operator)}
                        >
                          Change role<span className="visually-hidden"> of {operator.email}</span>
                        </button>
                        <button
                          type="button"
                          className="btn btn-ghost admin-small-btn admin-danger-text"
                          onClick={() => setRemoving(operator)}
                        >
                          Remove<span className="visually-hidden"> {operator.email}</span>
                        </button>
                      </div>
                    )}
                  </li>
                );
              })}
            </ul>
          )}
        </section>
      </div>
      {changing && (
        <RoleDialog
          operator={changing}
          onClose={() => setChanging(null)}
          onDone={(role) => {
            setChanging(null);
            show({ tone: 'ok', text: `${changing.email} is now ${roleWords[role].toLowerCase()}.` });
            load();
          }}
        />
      )}
      {removing && (
        <ConfirmDialog
          title={`Remove ${removing.email}?`}
          text="Their sessions end now and their sign-in link stops working. Their lines in the audit log stay."
          confirmLabel="Remove operator"
          busy={removeBusy}
          onCancel={() => setRemoving(null)}
          onConfirm={() => void remove(removing)}
        />
      )}
    </Page>
  );
}

function AddOperator({ onAdd }: { onAdd: (email: string, role: OperatorRole) => Promise<void> }) {
  const form = useForm({
    schema: createOperatorSchema,
    initial: { email: '', role: 'moderator' },
    // On success the link takes this form's place.
    onSubmit: (input) => onAdd(input.email, input.role),
  });
  return (
    <Form form={form} aria-labelledby="admin-add-operator" className="admin-add-form">
      <TextField
        form={form}
        name="email"
        type="email"
        label="Email"
        autoComplete="off"
        autoCapitalize="off"
        maxLength={254}
      />
      <SelectField
        form={form}
        name="role"
        label="Role"
        options={roleChoices.map(({ value, label }) => ({ value, label }))}
        hint="Admins also manage operators, lift suspensions and export the log."
      />
      <SubmitButton form={form}>Add operator</SubmitButton>
    </Form>
  );
}

/** The link is never shown again: copying it is the one thing to do here. */
function InviteLink({ link, onDone }: { link: { email: string; url: string }; onDone: () => void }) {
  const id = useId();
  const [copied, setCopied] = useState<boolean | null>(null);
  return (
    <div className="admin-invite">
      <p className="admin-flash is-ok" role="status">
        {link.email} is added.
      </p>
      <p>
        Send this one-time sign-in link to them yourself, through a channel you trust. It is shown only now;
        it works once, within 72 hours, and sets up their password and authenticator app.
      </p>
      <label htmlFor={id} className="field-label">
        One-time sign-in link
      </label>
      <div className="admin-invite-row">
        <input
          id={id}
          className="field-input admin-invite-input"
          value={link.url}
          readOnly
          onFocus={(event) => event.currentTarget.select()}
        />
        <button
          type="button"
          className="btn btn-primary"
          onClick={() =>
            navigator.clipboard.writeText(link.url).then(
              () => setCopied(true),
              () => setCopied(false),
            )
          }
        >
          <CopyIcon aria-hidden="true" />
          Copy link
        </button>
      </div>
      <p className="admin-muted" role="status">
        {copied === true
          ? 'The link is copied.'
          : copied === false
            ? 'Copying did not work: select the link and copy it by hand.'
            : ''}
      </p>
      <button type="button" className="btn btn-ghost" onClick={onDone}>
        Done
      </button>
    </div>
  );
}

function RoleDialog({
  operator,
  onClose,
  onDone,
}: {
  operator: OperatorRow;
  onClose: () => void;
  onDone: (role: OperatorRole) => void;
}) {
  const { call } = useConsole();
  const form = useForm({
    schema: changeRoleSchema,
    initial: { role: operator.role as string },
    onSubmit: async (input) => {
      await call((token) => changeOperatorRole(token, operator.id, input.role));
      onDone(input.role);
    },
  });
  return (
    <DecisionDialog
      title="Change role"
      lead={operator.email}
      form={form}
      submitLabel="Save role"
      onClose={onClose}
    >
      <ChoiceField form={form} name="role" label="Role" options={roleChoices} />
    </DecisionDialog>
  );
}
