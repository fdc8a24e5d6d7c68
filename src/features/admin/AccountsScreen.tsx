import { useEffect } from 'react';
import { useLocation, useSearchParams } from 'react-router';
import { fetchAccounts } from '../../api/admin';
import { type Account, accountQuerySchema } from '../../contract/admin';
import { Form, TextField, useForm } from '../../ui/form';
import { Link } from '../../ui/Link';
import { useStillOnScreen } from '../../ui/useStillOnScreen';
import { UsersIcon } from './icons';
import { accountTypeWords, Badge, Empty, Failed, Loading, LoadMore, Page, VerificationBadge } from './parts';
import { useConsoleList } from './useConsoleList';
import './accounts.css';

const SEARCH_DELAY_MS = 300;

/**
 * /admin/accounts: every account, newest first, narrowed as the operator types (after a pause, so each
 * keystroke is not a search). The words are kept in the address: back from an account, the same list.
 */
export function AccountsScreen() {
  const [params, setParams] = useSearchParams();
  const query = params.get('q') ?? '';
  const form = useForm({
    schema: accountQuerySchema,
    initial: { q: query },
    // Enter searches at once.
    onSubmit: (input) => setParams(input.q ? { q: input.q } : {}, { replace: true }),
  });
  const typed = form.values.q.trim();
  const stillHere = useStillOnScreen();

  useEffect(() => {
    if (typed === query) return;
    const timer = setTimeout(() => {
      // A result clicked within the pause opens its account, not this list again.
      if (stillHere()) setParams(typed ? { q: typed } : {}, { replace: true });
    }, SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [typed, query, setParams, stillHere]);

  const list = useConsoleList(
    `accounts\u0000${query}`,
    (token, next) => fetchAccounts(token, query, next),
    (account: Account) => account.id,
  );

  return (
    <Page title="Accounts" lead="Viewers and creators: find one to see their videos or suspend them.">
      <Form form={form} className="admin-search">
        <TextField
          form={form}
          name="q"
          type="search"
          label="Search accounts"
          hint="Email, name, username, profile address (slug) or account id."
          autoComplete="off"
          autoCapitalize="off"
          maxLength={200}
        />
      </Form>
      {list.status === 'loading' ? (
        <Loading />
      ) : list.status === 'error' ? (
        <Failed title="The accounts did not load" error={list.error} onRetry={list.retry} />
      ) : list.items.length === 0 ? (
        <Empty
          title={query ? 'No account matches.' : 'No accounts yet.'}
          text={query ? `Nothing found for “${query}”. Check the spelling, or search by id.` : undefined}
          icon={<UsersIcon />}
        />
      ) : (
        <>
          <p className="visually-hidden" role="status">
            {query ? `Accounts for “${query}”` : 'All accounts'}
          </p>
          <AccountTable accounts={list.items} />
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

function AccountTable({ accounts }: { accounts: Account[] }) {
  // The search the list was opened with, for the account's way back.
  const { search } = useLocation();
  return (
    <table className="admin-table admin-accounts">
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">Email</th>
          <th scope="col">Type</th>
          <th scope="col">Verification</th>
          <th scope="col" className="is-number">
            Videos
          </th>
          <th scope="col" className="is-number">
            Open reports
          </th>
        </tr>
      </thead>
      <tbody>
        {accounts.map((account) => (
          <tr key={account.id}>
            <th scope="row" className="admin-accounts-name">
              <Link to={`/admin/accounts/${account.id}`} state={{ search }}>
                {account.name || account.username}
              </Link>
              <span className="admin-muted">
                @{account.slug} · id {account.id}
              </span>
              {account.suspendedAt && (
                <span className="admin-badges">
                  <Badge tone="danger">Suspended</Badge>
                </span>
              )}
            </th>
            <td data-label="Email" className="admin-accounts-email">
              {account.email}
            </td>
            <td data-label="Type">{accountTypeWords[account.type]}</td>
            <td data-label="Verification">
              <VerificationBadge status={account.verification} />
            </td>
            <td data-label="Videos" className="is-number">
              {account.videos}
            </td>
            <td data-label="Open reports" className="is-number">
              {account.openReports > 0 ? <Badge tone="danger">{account.openReports}</Badge> : 0}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
