/**
 * Light and dark: the system's preference unless the person chose one, kept in localStorage.
 * The resolved theme is `data-theme` on <html>; the stylesheets key every colour off it.
 */
import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';

export type ThemePreference = 'system' | 'light' | 'dark';
export type Theme = 'light' | 'dark';

const storageKey = 'portal.theme';
const darkQuery = '(prefers-color-scheme: dark)';

export function storedThemePreference(): ThemePreference {
  const value = localStorage.getItem(storageKey);
  return value === 'light' || value === 'dark' ? value : 'system';
}

export function resolveTheme(preference: ThemePreference, systemDark: boolean): Theme {
  return preference === 'system' ? (systemDark ? 'dark' : 'light') : preference;
}

export function applyTheme(preference: ThemePreference): Theme {
  const theme = resolveTheme(preference, window.matchMedia(darkQuery).matches);
  document.documentElement.dataset.theme = theme;
  return theme;
}

/** The next preference of the theme button: system → light → dark → system. */
export function nextPreference(preference: ThemePreference): ThemePreference {
  return preference === 'system' ? 'light' : preference === 'light' ? 'dark' : 'system';
}

interface ThemeState {
  preference: ThemePreference;
  theme: Theme;
  setPreference(p: ThemePreference): void;
}

const ThemeContext = createContext<ThemeState | undefined>(undefined);

/** Holds the preference and its resolved theme (following the system while it is `system`); the setter persists it. */
export function ThemeProvider({ children }: { children: ReactNode }) {
  const [preference, setPreferenceState] = useState<ThemePreference>(storedThemePreference);
  const [theme, setTheme] = useState<Theme>(() => applyTheme(preference));
  useEffect(() => {
    setTheme(applyTheme(preference));
    const query = window.matchMedia(darkQuery);
    const follow = () => setTheme(applyTheme(preference));
    query.addEventListener('change', follow);
    return () => query.removeEventListener('change', follow);
  }, [preference]);
  const setPreference = (p: ThemePreference) => {
    if (p === 'system') localStorage.removeItem(storageKey);
    else localStorage.setItem(storageKey, p);
    setPreferenceState(p);
  };
  return <ThemeContext.Provider value={{ preference, theme, setPreference }}>{children}</ThemeContext.Provider>;
}

export function useTheme(): ThemeState {
  const state = useContext(ThemeContext);
  if (!state) throw new Error('useTheme outside ThemeProvider');
  return state;
}
