/**
 * Who is signed in. The page asks /api/v1/portal/session; a signed-out visitor is sent to sign in
 * and comes back to the address they asked for (the identity provider's flow), or is told where
 * the one-time link is (`platform dev`), or that browser sign-in is not set up here.
 */
import { createContext, useContext, useEffect, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { ApiError, api, setCsrfToken, unwrap } from '../api/client';
import { usePortalSettings } from './settings';

export interface SignedIn {
  subject: string;
  name?: string;
  email?: string;
  roles: string[];
  csrf_token?: string;
  expires_at?: string;
}

const SessionContext = createContext<SignedIn | undefined>(undefined);

export function useSession(): SignedIn {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside a signed-in page');
  return session;
}

/** The sign-in address that returns to where the visitor is now. */
export function signInAddress(location: Pick<Location, 'pathname' | 'search' | 'hash'>): string {
  return `/portal/auth/login?return_to=${encodeURIComponent(location.pathname + location.search + location.hash)}`;
}

async function fetchSession(): Promise<SignedIn | null> {
  try {
    return unwrap(await api.GET('/api/v1/portal/session'));
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}

export function SignInGate({ children }: { children: ReactNode }) {
  const settings = usePortalSettings();
  const session = useQuery({ queryKey: ['session'], queryFn: fetchSession, staleTime: Infinity, retry: 1 });
  const signedOut = session.data === null;
  const kind = settings.data?.sign_in;
  useEffect(() => {
    setCsrfToken(session.data?.csrf_token);
  }, [session.data]);
  useEffect(() => {
    if (signedOut && kind === 'provider') window.location.assign(signInAddress(window.location));
  }, [signedOut, kind]);

  if (session.isError) return <Notice title="The portal cannot reach the platform">{String(session.error.message)}</Notice>;
  if (session.isPending || (signedOut && (settings.isPending || kind === 'provider'))) return <Notice title="Signing in…" busy />;
  if (signedOut && kind === 'link') {
    return (
      <Notice title="Sign in with the link from the terminal">
        The platform printed a one-time sign-in link when it started (<code>npm start</code>, the line “sign in”). Open it in
        this browser. A link works once and for 15 minutes; restart the platform for a new one.
      </Notice>
    );
  }
  if (signedOut) {
    return (
      <Notice title="Browser sign-in is not set up">
        This platform does not sign people in through the browser (auth.browser_session and auth.oidc in its configuration).
      </Notice>
    );
  }
  return <SessionContext.Provider value={session.data!}>{children}</SessionContext.Provider>;
}

export function Notice({ title, children, busy }: { title: string; children?: ReactNode; busy?: boolean }) {
  return (
    <main className="notice" aria-busy={busy ? true : undefined}>
      <h1>{title}</h1>
      {children ? <p>{children}</p> : null}
    </main>
  );
}
