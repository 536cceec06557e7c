import { useEffect, useRef, useState } from 'preact/hooks';
import type { Bootstrap } from './bootstrap';
import { signIn, type Member } from './session';

/**
 * The gateway sends the browser back to /console?signIn=failed when the organization's sign-in did not work
 * (the reason is in its log): said once, and taken out of the address.
 */
function organizationFailed(): string {
  const query = new URLSearchParams(window.location.search);
  if (query.get('signIn') !== 'failed') return '';
  query.delete('signIn');
  const rest = query.toString();
  window.history.replaceState(null, '', `${window.location.pathname}${rest ? `?${rest}` : ''}`);
  return 'Signing in with your organization did not work. Try again, or sign in with your password.';
}

/**
 * Sign-in with the email and the password an admin handed over (`eligo admin staff create`). Every failure of
 * the credentials is one answer of the gateway; the page adds nothing to it. The organization's sign-in
 * (OIDC) shows only when the gateway's bootstrap data offers it.
 */
export function SignIn(props: { bootstrap: Bootstrap; notice?: string; onSignedIn(member: Member): void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [problem, setProblem] = useState(organizationFailed);
  const [busy, setBusy] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  const organization = props.bootstrap.signIn.organization;

  useEffect(() => heading.current?.focus(), []);

  const submit = async (e: Event) => {
    e.preventDefault();
    if (!email.trim() || !password) {
      setProblem('Enter your email and your password.');
      return;
    }
    setBusy(true);
    const outcome = await signIn(email.trim(), password);
    setBusy(false);
    if (outcome.ok) return props.onSignedIn(outcome.data);
    const { status, message } = outcome.failure;
    setPassword('');
    setProblem(
      status === 401
        ? 'The email or the password is wrong.'
        : status === 429
          ? 'Too many sign-ins from here: wait a minute, then try again.'
          : status === 0
            ? 'Eligo could not be reached. Check the connection and try again.'
            : `Eligo could not sign you in (status ${status})${message ? `: ${message}` : ''}.`,
    );
  };

  return (
    <main id="content" class="signin">
      <div class="card">
        <h1 tabIndex={-1} ref={heading}>
          Eligo console
        </h1>
        <p class="muted">Sign in with the staff account an administrator created for you.</p>
        {props.notice && (
          <p class="notice" role="status">
            {props.notice}
          </p>
        )}
        {problem && (
          <p class="problem" role="alert" id="signin-problem">
            {problem}
          </p>
        )}
        <form onSubmit={submit} noValidate aria-describedby={problem ? 'signin-problem' : undefined}>
          <Credential type="email" label="Email" value={email} onInput={setEmail} />
          <Credential type="password" label="Password" value={password} onInput={setPassword} />
          <button type="submit" disabled={busy}>
            {busy ? 'Signing in…' : 'Sign in'}
          </button>
        </form>
        {organization && (
          <div class="signin__organization">
            <p class="muted">or</p>
            {/* A plain link: the organization's sign-in is a redirect flow of the gateway. */}
            <a class="button" href={organization.url}>
              Sign in with {organization.label || 'your organization'}
            </a>
          </div>
        )}
      </div>
    </main>
  );
}

/** The input of each credential, with the autocomplete a password manager fills it by. */
const INPUTS = {
  email: { type: 'email', autocomplete: 'username' },
  password: { type: 'password', autocomplete: 'current-password' },
} as const;

function Credential(props: {
  type: keyof typeof INPUTS;
  label: string;
  value: string;
  onInput(value: string): void;
}) {
  const id = `signin-${props.type}`;
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      <input
        id={id}
        {...INPUTS[props.type]}
        value={props.value}
        onInput={(e) => props.onInput(e.currentTarget.value)}
        required
      />
    </div>
  );
}
