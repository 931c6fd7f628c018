import type { ReactNode } from 'react';

/** A refusal or failure, in the server's own words; announced to screen readers. */
export function ErrorMessage({ children }: { children: ReactNode }) {
  if (children === undefined || children === null || children === '') return null;
  return (
    <p className="error-message" role="alert">
      {children}
    </p>
  );
}

/** A short status line (saved, copied, …), announced politely. */
export function StatusMessage({ children }: { children: ReactNode }) {
  return (
    <p className="status-message" role="status">
      {children}
    </p>
  );
}
