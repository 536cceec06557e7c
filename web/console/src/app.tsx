import { useEffect, useMemo, useState } from 'preact/hooks';
import { onSessionLost } from './api';
import { roleMay, type Bootstrap } from './bootstrap';
import { takeFlash } from './flash';
import { Help } from './help';
import { AccountPage } from './pages/account';
import { AccountsPage } from './pages/accounts';
import { AddSchoolPage } from './pages/add-school';
import { AuditPage } from './pages/audit';
import { ProgramPage } from './pages/program';
import { ProgramsPage } from './pages/programs';
import { ReviewPage } from './pages/review';
import { ReviewsPage } from './pages/reviews';
import { StaffPage } from './pages/staff';
import { VerificationPage } from './pages/verification';
import { VerificationsPage } from './pages/verifications';
import { Link, useRoute } from './router';
import { hrefOf, type Route } from './routes';
import { currentMember, signOut, type Member } from './session';
import { useShortcuts } from './shortcuts';
import { SignIn } from './sign-in';
import { PageTitle, StaffContext, type Staff } from './ui';

type Session =
  { state: 'checking' } | { state: 'signedOut'; notice?: string } | { state: 'signedIn'; member: Member };

/** A section of the console: its first page, the pages it holds, the operation whose role shows it. */
const section = (
  label: string,
  operationId: string,
  route: Route,
  pages: Route['page'][] = [route.page],
) => ({
  label,
  route,
  operationId,
  pages,
});

/** The sections of the console, each shown to the roles that may call the operation that lists it. */
const SECTIONS: readonly ReturnType<typeof section>[] = [
  section('Review queue', 'adminListReviews', { page: 'reviews' }, ['reviews', 'review']),
  section('Add-school requests', 'adminListAddSchoolRequests', { page: 'addSchool' }),
  section('Verifications', 'adminGetVerification', { page: 'verifications' }, [
    'verifications',
    'verification',
  ]),
  section('Programs', 'adminListPrograms', { page: 'programs' }, ['programs', 'program']),
  section('Accounts', 'adminListAccounts', { page: 'accounts' }, ['accounts', 'account']),
  section('Audit log', 'adminListAudit', { page: 'audit' }),
  section('Staff', 'adminListStaff', { page: 'staff' }),
];

/** The console: the sign-in until a staff session exists, then the sections the member's role may use. */
export function App({ bootstrap }: { bootstrap: Bootstrap }) {
  const [session, setSession] = useState<Session>({ state: 'checking' });

  useEffect(() => {
    void currentMember().then((found) =>
      setSession(found.ok ? { state: 'signedIn', member: found.data } : { state: 'signedOut' }),
    );
    return onSessionLost(() =>
      setSession({ state: 'signedOut', notice: 'Your session ended. Sign in again to go on.' }),
    );
  }, []);

  if (session.state === 'checking')
    return (
      <main id="content" class="signin">
        <p role="status">Loading the console…</p>
      </main>
    );
  if (session.state === 'signedOut')
    return (
      <SignIn
        bootstrap={bootstrap}
        notice={session.notice}
        onSignedIn={(member) => setSession({ state: 'signedIn', member })}
      />
    );
  return (
    <SignedIn
      bootstrap={bootstrap}
      member={session.member}
      onSignedOut={() => setSession({ state: 'signedOut', notice: 'You signed out.' })}
    />
  );
}

function SignedIn(props: { bootstrap: Bootstrap; member: Member; onSignedOut(): void }) {
  const { member } = props;
  const route = useRoute();
  const [helpOpen, setHelpOpen] = useState(false);
  const [flash, setFlashText] = useState('');
  const here = hrefOf(route);
  // What the last action did, said once on the page it moved to.
  useEffect(() => setFlashText(takeFlash()), [here]);
  const staff = useMemo<Staff>(
    () => ({ member, may: (operationId) => roleMay(props.bootstrap.roles, member.role, operationId) }),
    [member, props.bootstrap],
  );
  useShortcuts({ '?': () => setHelpOpen((open) => !open) });
  const sections = SECTIONS.filter((s) => staff.may(s.operationId));

  const leave = async () => {
    await signOut();
    props.onSignedOut();
  };

  return (
    <StaffContext.Provider value={staff}>
      <a class="skip-link" href="#content">
        Skip to the page
      </a>
      <header class="top">
        <span class="top__brand">Eligo console</span>
        <span class="top__member">
          {member.name} <span class="badge">{member.role}</span>
        </span>
        <button type="button" class="button--quiet" aria-haspopup="dialog" onClick={() => setHelpOpen(true)}>
          <span aria-hidden="true">?</span> Keyboard shortcuts
        </button>
        <button type="button" class="button--quiet" onClick={() => void leave()}>
          Sign out
        </button>
      </header>
      <div class="layout">
        <nav class="sections" aria-label="Sections">
          <ul>
            {sections.map((s) => (
              <li key={s.label}>
                <Link href={hrefOf(s.route)} aria-current={s.pages.includes(route.page) ? 'page' : undefined}>
                  {s.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <main id="content" class="content">
          <p class="flash" role="status">
            {flash}
          </p>
          <Page route={route} key={here} />
        </main>
      </div>
      <Help open={helpOpen} onClose={() => setHelpOpen(false)} />
    </StaffContext.Provider>
  );
}

function Page({ route }: { route: Route }) {
  switch (route.page) {
    case 'reviews':
      return <ReviewsPage programId={route.programId} segment={route.segment} />;
    case 'review':
      return <ReviewPage reviewId={route.reviewId} />;
    case 'addSchool':
      return <AddSchoolPage />;
    case 'verifications':
      return <VerificationsPage />;
    case 'verification':
      return <VerificationPage verificationId={route.verificationId} />;
    case 'programs':
      return <ProgramsPage accountId={route.accountId} />;
    case 'program':
      return <ProgramPage programId={route.programId} />;
    case 'accounts':
      return <AccountsPage />;
    case 'account':
      return <AccountPage accountId={route.accountId} />;
    case 'audit':
      return <AuditPage />;
    case 'staff':
      return <StaffPage />;
    case 'notFound':
      return (
        <>
          <PageTitle>Page not found</PageTitle>
          <p>
            The console has no such page.{' '}
            <Link href={hrefOf({ page: 'reviews' })}>Go to the review queue</Link>.
          </p>
        </>
      );
  }
}
