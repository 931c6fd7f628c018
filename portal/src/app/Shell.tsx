/**
 * The signed-in layout: the sidebar (brand, sections, theme, who is signed in) and the page.
 */
import { Suspense } from 'react';
import { NavLink, Outlet } from 'react-router';
import { Button } from 'react-aria-components';
import { FolderOpen, LogOut, MessageSquareText, Monitor, Moon, Sparkles, Sun } from 'lucide-react';
import { SignInGate, useSession } from './session';
import { usePortalSettings } from './settings';
import { nextPreference, useTheme, type ThemePreference } from './theme';
import { AdminSections } from '../admin/AdminSections';
import { useRefuseStrayFileDrops } from '../ui/drag';

const themeLabels: Record<ThemePreference, string> = { system: 'Theme: system', light: 'Theme: light', dark: 'Theme: dark' };

function Brand() {
  const settings = usePortalSettings();
  const { theme } = useTheme();
  const title = settings.data?.title ?? '';
  const logo = (theme === 'dark' ? settings.data?.logo_dark : settings.data?.logo_light) || settings.data?.logo;
  return (
    <div className="brand">
      {logo ? <img className="brand-logo" src={logo} alt="" /> : null}
      <span className="brand-title">{title}</span>
    </div>
  );
}

function ThemeButton() {
  const { preference, setPreference } = useTheme();
  const Icon = preference === 'system' ? Monitor : preference === 'light' ? Sun : Moon;
  return (
    <Button className="sidebar-button" onPress={() => setPreference(nextPreference(preference))} aria-label={`${themeLabels[preference]} (change)`}>
      <Icon aria-hidden size={16} /> {themeLabels[preference]}
    </Button>
  );
}

function Who() {
  const session = useSession();
  return (
    <div className="who">
      <span className="who-name" title={session.subject}>
        {session.name ?? session.email ?? session.subject}
      </span>
      <a className="sidebar-button" href="/portal/auth/logout">
        <LogOut aria-hidden size={16} /> Sign out
      </a>
    </div>
  );
}

export function Shell() {
  useRefuseStrayFileDrops();
  const settings = usePortalSettings();
  if (settings.data?.title) document.title = settings.data.title;
  return (
    <SignInGate>
      <div className="shell">
        <nav className="sidebar" aria-label="Portal">
          <Brand />
          <ul className="sections">
            <li>
              <NavLink to="/resources" className="section-link">
                <FolderOpen aria-hidden size={16} /> Resources
              </NavLink>
            </li>
            <li>
              <NavLink to="/assets" className="section-link">
                <Sparkles aria-hidden size={16} /> Assets
              </NavLink>
            </li>
            <li>
              <NavLink to="/prompts" className="section-link">
                <MessageSquareText aria-hidden size={16} /> Prompts
              </NavLink>
            </li>
          </ul>
          <AdminSections />
          <div className="sidebar-end">
            <ThemeButton />
            <Who />
          </div>
        </nav>
        <main className="page" id="main">
          <Suspense fallback={<p className="loading">Loading…</p>}>
            <Outlet />
          </Suspense>
        </main>
      </div>
    </SignInGate>
  );
}
