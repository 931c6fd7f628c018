import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { applyTheme, storedThemePreference } from './app/theme';
import { App } from './app/App';
import './styles/base.css';

// The theme is set before the first paint, so a dark page never flashes light.
applyTheme(storedThemePreference());

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
