import { useEffect, useState } from 'preact/hooks';
import { onSessionEnded } from './api.js';
import { Account } from './pages/account.js';
import { ApiKeys } from './pages/api-keys.js';
import { Customer } from './pages/customer.js';
import { Cashflow } from './pages/cashflow.js';
import { Cohorts } from './pages/cohorts.js';
import { Concentration } from './pages/concentration.js';
import { Countries } from './pages/countries.js';
import { Connections } from './pages/connections.js';
import { Customers } from './pages/customers.js';
import { DataSources } from './pages/data-sources.js';
import { Leads } from './pages/leads.js';
import { Movements } from './pages/movements.js';
import { Notifications } from './pages/notifications.js';
import { Retention } from './pages/retention.js';
import { Scheduled } from './pages/scheduled.js';
import { Dashboard } from './pages/dashboard.js';
import { SetPassword } from './pages/set-password.js';
import { SignIn } from './pages/sign-in.js';
import { Team } from './pages/team.js';
import { Webhooks } from './pages/webhooks.js';
import { type Route, useRoute } from './route.js';
import { loadSession, type Session, signOut } from './session.js';
import { useLoad } from './use-load.js';

/** The menus of the top bar: the dashboard, then the reports and the settings, each a group. */
const MENUS = [
  {
    label: 'Reports',
    links: [
      ['/movements', 'Movements'],
      ['/customers', 'Customers'],
      ['/cohorts', 'Cohorts'],
      ['/retention', 'Retention'],
      ['/leads', 'Leads and trials'],
      ['/cashflow', 'Cashflow'],
      ['/countries', 'Countries'],
      ['/concentration', 'Concentration'],
      ['/scheduled', 'Scheduled churn'],
    ],
  },
  {
    label: 'Settings',
    links: [
      ['/settings/data-sources', 'Data sources'],
      ['/settings/connections', 'Connections'],
      ['/settings/notifications', 'Notifications'],
      ['/settings/webhooks', 'Webhooks'],
      ['/settings/api-keys', 'API keys'],
      ['/settings/team', 'Team'],
      ['/settings/account', 'Your account'],
    ],
  },
] as const;

function Page({
  route,
  session,
  onSessionChanged,
}: {
  route: Route;
  session: Session;
  onSessionChanged: () => void;
}) {
  const customer = /^\/customers\/(.+)$/.exec(route.path);
  if (customer)
    return <Customer id={decodeURIComponent(customer[1]!)} baseCurrency={session.account.base_currency} />;
  switch (route.path) {
    case '/movements':
      return <Movements route={route} />;
    case '/cohorts':
      return <Cohorts route={route} />;
    case '/retention':
      return <Retention route={route} />;
    case '/leads':
      return <Leads route={route} />;
    case '/cashflow':
      return <Cashflow route={route} />;
    case '/countries':
      return <Countries route={route} />;
    case '/concentration':
      return <Concentration route={route} />;
    case '/scheduled':
      return <Scheduled route={route} />;
    case '/customers':
      return <Customers route={route} baseCurrency={session.account.base_currency} />;
    case '/settings/api-keys':
      return <ApiKeys session={session} />;
    case '/settings/team':
      return <Team session={session} />;
    case '/settings/account':
      return <Account session={session} onChanged={onSessionChanged} />;
    case '/settings/data-sources':
      return <DataSources session={session} />;
    case '/settings/connections':
      return <Connections route={route} session={session} />;
    case '/settings/notifications':
      return <Notifications session={session} />;
    case '/settings/webhooks':
      return <Webhooks session={session} />;
    default:
      return <Dashboard route={route} />;
  }
}

/**
 * The dashboard link and the Reports and Settings menus. On a wide screen each menu opens
 * under its button; at phone width the whole navigation folds behind one Menu button and the
 * groups are listed one under the other. Any navigation closes what is open.
 */
function Navigation({ current }: { current: string }) {
  const [open, setOpen] = useState<string>();
  const [folded, setFolded] = useState(true);
  useEffect(() => {
    setOpen(undefined);
    setFolded(true);
  }, [current]);
  useEffect(() => {
    if (!open) return;
    const close = (event: MouseEvent) => {
      if (!(event.target instanceof Element) || !event.target.closest('.menu')) setOpen(undefined);
    };
    const escape = (event: KeyboardEvent) => event.key === 'Escape' && setOpen(undefined);
    document.addEventListener('click', close);
    document.addEventListener('keydown', escape);
    return () => {
      document.removeEventListener('click', close);
      document.removeEventListener('keydown', escape);
    };
  }, [open]);
  return (
    <>
      <button
        type="button"
        class="secondary menu-toggle"
        aria-expanded={!folded}
        aria-controls="main-nav"
        onClick={() => setFolded(!folded)}
      >
        Menu
      </button>
      <nav id="main-nav" class={folded ? undefined : 'unfolded'} aria-label="Pages">
        <a href="#/dashboard" aria-current={current === '/dashboard' ? 'page' : undefined}>
          Dashboard
        </a>
        {MENUS.map((menu) => {
          const here = menu.links.some(([path]) => path === current);
          const id = `menu-${menu.label.toLowerCase()}`;
          return (
            <div key={menu.label} class={`menu${open === menu.label ? ' open' : ''}${here ? ' here' : ''}`}>
              <button
                type="button"
                class="menu-button"
                aria-expanded={open === menu.label}
                aria-controls={id}
                onClick={() => setOpen(open === menu.label ? undefined : menu.label)}
              >
                {menu.label} <span aria-hidden="true">▾</span>
              </button>
              <div class="menu-panel" id={id} role="group" aria-label={menu.label}>
                {menu.links.map(([path, label]) => (
                  <a key={path} href={`#${path}`} aria-current={current === path ? 'page' : undefined}>
                    {label}
                  </a>
                ))}
              </div>
            </div>
          );
        })}
      </nav>
    </>
  );
}

function Shell({
  route,
  session,
  onSessionChanged,
}: {
  route: Route;
  session: Session;
  /** Signed out, or the account changed: the session is read again. */
  onSessionChanged: () => void;
}) {
  const [error, setError] = useState<string>();
  const leave = () =>
    signOut().then(
      () => {
        window.location.hash = '#/sign-in';
        onSessionChanged();
      },
      () => setError('Signing out failed; try again.'),
    );
  const current = route.path === '/' ? '/dashboard' : route.path.replace(/^\/customers\/.+/, '/customers');
  return (
    <>
      <header class="top">
        <a class="brand" href="#/dashboard">
          mrrlytics
        </a>
        <Navigation current={current} />
        <span class="who" title={session.member.email}>
          {session.member.name || session.member.email} · {session.member.role}
        </span>
        <button type="button" class="secondary sign-out" onClick={() => void leave()}>
          Sign out
        </button>
      </header>
      {error && <p class="error">{error}</p>}
      <Page route={route} session={session} onSessionChanged={onSessionChanged} />
    </>
  );
}

/** One-time links work signed out; everything else needs a session, else the sign-in form. */
export function App() {
  const route = useRoute();
  const [session, reload] = useLoad(loadSession, 'session');
  // A session that ends while a page is open (expired, signed out elsewhere, member disabled)
  // brings the sign-in form back instead of leaving every panel with an error.
  useEffect(() => onSessionEnded(reload), [reload]);
  const link = /^\/(setup|invite)\/([\w-]+)$/.exec(route.path);
  if (link) return <SetPassword kind={link[1] as 'setup' | 'invite'} token={link[2]!} onSignedIn={reload} />;
  if (session.state === 'loading') return <p class="status">Loading…</p>;
  if (session.state === 'error') {
    return (
      <p class="error" role="alert">
        The service could not be reached: {session.message}
      </p>
    );
  }
  if (!session.value) return <SignIn onSignedIn={reload} />;
  if (route.path === '/sign-in') window.location.hash = '#/dashboard';
  return <Shell route={route} session={session.value} onSessionChanged={reload} />;
}
