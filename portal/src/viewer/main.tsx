/**
 * The public viewer of a shared asset (served at /portal/view/<token> by api/portal/viewer.ts):
 * its own small entry, apart from the portal's app, with its own CSP.
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { applyTheme, storedThemePreference } from '../app/theme';
import { ViewerApp } from './ViewerApp';
import '../styles/base.css';
import './viewer.css';

// The theme is set before the first paint, so a dark page never flashes light.
applyTheme(storedThemePreference());

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <ViewerApp />
  </StrictMode>,
);
