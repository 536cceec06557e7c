import { useState } from 'preact/hooks';
import type { Failure } from '../api';
import {
  getAccount,
  issueAccessToken,
  listAccessTokens,
  revokeAccessToken,
  type AccessToken,
  type AccessTokenCreated,
  type TokenRole,
} from '../api-calls';
import { PagedTable, usePages } from '../paged-table';
import { Link } from '../router';
import { hrefOf } from '../routes';
import { PageTitle, Pending, Problem, Status, Time, useLoad, useStaff } from '../ui';

const ROLES: readonly { role: TokenRole; label: string }[] = [
  { role: 'REPORTER', label: 'Reports (REPORTER)' },
  { role: 'PII', label: 'Personal information (PII)' },
  { role: 'BULK_VERIFIER', label: 'Bulk re-verification (BULK_VERIFIER)' },
];

/**
 * One account: what it is and uses, and (for admins) its access tokens: listed without any credential, a new
 * one issued (its token and client secret shown here once, never again), one revoked (every gateway refuses it
 * within a second).
 */
export function AccountPage({ accountId }: { accountId: string }) {
  const { may } = useStaff();
  // Reloaded when a token is issued or revoked: its count of live tokens changes.
  const [account, reloadAccount] = useLoad(() => getAccount(accountId), [accountId]);
  return (
    <>
      <p class="crumbs">
        <Link href={hrefOf({ page: 'accounts' })}>Accounts</Link>
      </p>
      <PageTitle>{account.state === 'ready' ? account.data.name : `Account ${accountId}`}</PageTitle>
      {account.state !== 'ready' ? (
        <Pending load={account} what="read the account" />
      ) : (
        <dl class="facts">
          <dt>Account id</dt>
          <dd>
            <code>{accountId}</code>
          </dd>
          <dt>Programs</dt>
          <dd>
            <Link href={hrefOf({ page: 'programs', accountId })}>{account.data.programCount}</Link>
          </dd>
          <dt>Live access tokens</dt>
          <dd>{account.data.tokenCount}</dd>
          <dt>Created</dt>
          <dd>
            <Time value={account.data.created} />
          </dd>
        </dl>
      )}
      {may('adminListAccessTokens') && (
        <section class="panel" aria-labelledby="tokens-title">
          <h2 id="tokens-title">Access tokens</h2>
          <Tokens
            accountId={accountId}
            mayIssue={may('adminCreateAccessToken')}
            mayRevoke={may('adminRevokeAccessToken')}
            onChange={reloadAccount}
          />
        </section>
      )}
    </>
  );
}

function Tokens(props: { accountId: string; mayIssue: boolean; mayRevoke: boolean; onChange(): void }) {
  const { accountId } = props;
  const pages = usePages((cursor) => listAccessTokens(accountId, cursor), [accountId]);
  const changed = () => {
    pages.reload();
    props.onChange();
  };
  return (
    <>
      {props.mayIssue && <IssueToken accountId={accountId} onIssued={changed} />}
      <PagedTable
        pages={pages}
        what="list the access tokens"
        rows={(data) => data.tokens}
        empty="This account has no access token."
        caption="Access tokens"
        heads={['Name', 'Roles', 'Created', 'State', '']}
        row={(t) => (
          <tr key={t.tokenId}>
            <td>{t.name}</td>
            <td>{t.roles.length > 0 ? t.roles.join(', ') : '—'}</td>
            <td>
              <Time value={t.created} />
            </td>
            <td>
              {t.revoked === null ? (
                'Active'
              ) : (
                <>
                  Revoked <Time value={t.revoked} />
                </>
              )}
            </td>
            <td>
              {props.mayRevoke && t.revoked === null && (
                <Revoke accountId={accountId} token={t} onRevoked={changed} />
              )}
            </td>
          </tr>
        )}
      />
    </>
  );
}

function Revoke(props: { accountId: string; token: AccessToken; onRevoked(): void }) {
  const [confirming, setConfirming] = useState(false);
  const [failure, setFailure] = useState<Failure>();
  const revoke = async () => {
    const outcome = await revokeAccessToken(props.accountId, props.token.tokenId);
    if (outcome.ok) props.onRevoked();
    else setFailure(outcome.failure);
  };
  if (failure) return <Problem failure={failure} what="revoke the token" />;
  return !confirming ? (
    <button type="button" class="button--quiet" onClick={() => setConfirming(true)}>
      Revoke…<span class="visually-hidden"> {props.token.name}</span>
    </button>
  ) : (
    <span role="group" aria-label={`Confirm revoking ${props.token.name}`} class="confirm">
      <button type="button" class="button--reject" onClick={() => void revoke()}>
        Revoke now
      </button>
      <button type="button" class="button--quiet" onClick={() => setConfirming(false)}>
        Cancel
      </button>
    </span>
  );
}

/** A new token: its name and roles; the token and the OAuth client secret are shown once, here. */
function IssueToken(props: { accountId: string; onIssued(): void }) {
  const [name, setName] = useState('');
  const [roles, setRoles] = useState<TokenRole[]>([]);
  const [issued, setIssued] = useState<AccessTokenCreated>();
  const [failure, setFailure] = useState<Failure>();
  const [busy, setBusy] = useState(false);
  const [copied, setCopied] = useState('');

  const issue = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setFailure(undefined);
    const outcome = await issueAccessToken(props.accountId, name.trim(), roles);
    setBusy(false);
    if (!outcome.ok) return setFailure(outcome.failure);
    setIssued(outcome.data);
    setName('');
    setRoles([]);
    props.onIssued();
  };
  const copy = async (value: string) => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied('Copied.');
    } catch {
      setCopied('Select it and copy it.');
    }
  };

  return (
    <>
      {issued && (
        <div class="secret">
          <p class="warning" role="alert">
            The token “{issued.name}” and its client secret are shown only now: hand them over, they cannot be
            read again.
          </p>
          {(
            [
              ['issued-token', 'Bearer token', issued.token],
              ['issued-client-id', 'OAuth client id', issued.clientId],
              ['issued-client-secret', 'OAuth client secret', issued.clientSecret],
            ] as const
          ).map(([id, label, value]) => (
            <div class="field" key={id}>
              <label for={id}>{label}</label>
              <input
                id={id}
                readOnly
                value={value}
                spellcheck={false}
                onFocus={(e) => e.currentTarget.select()}
              />
              <button type="button" class="button--quiet" onClick={() => void copy(value)}>
                Copy<span class="visually-hidden"> the {label}</span>
              </button>
            </div>
          ))}
          <Status text={copied} />
        </div>
      )}
      <form class="filters" aria-label="Issue an access token" onSubmit={(e) => void issue(e)}>
        <div class="field">
          <label for="token-name">New token's name</label>
          <input
            id="token-name"
            required
            maxLength={100}
            value={name}
            onInput={(e) => setName(e.currentTarget.value)}
          />
        </div>
        <fieldset class="field">
          <legend>Roles</legend>
          {ROLES.map(({ role, label }) => (
            <label key={role} class="check">
              <input
                type="checkbox"
                checked={roles.includes(role)}
                onChange={(e) =>
                  setRoles((r) => (e.currentTarget.checked ? [...r, role] : r.filter((x) => x !== role)))
                }
              />{' '}
              {label}
            </label>
          ))}
        </fieldset>
        <button type="submit" disabled={busy || name.trim() === ''}>
          Issue the token
        </button>
      </form>
      {failure && <Problem failure={failure} what="issue the token" />}
    </>
  );
}
