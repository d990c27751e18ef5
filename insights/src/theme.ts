// Light, dark, or whatever the system prefers (the default); the choice is kept in this browser.
import {useEffect, useState} from 'react';

export type ThemeChoice = 'system' | 'light' | 'dark';
export type Theme = 'light' | 'dark';
const KEY = 'bookchat-insights-theme';
const DARK = '(prefers-color-scheme: dark)';

function stored(): ThemeChoice {
  try {
    const value = localStorage.getItem(KEY);
    return value === 'light' || value === 'dark' ? value : 'system';
  } catch {
    return 'system';
  }
}

/** The choice, a setter that remembers it, and the theme it resolves to now. */
export function useTheme(): [ThemeChoice, (choice: ThemeChoice) => void, Theme] {
  const [choice, setChoice] = useState<ThemeChoice>(stored);
  const [systemDark, setSystemDark] = useState(() => matchMedia(DARK).matches);
  useEffect(() => {
    const query = matchMedia(DARK);
    const changed = () => setSystemDark(query.matches);
    query.addEventListener('change', changed);
    return () => query.removeEventListener('change', changed);
  }, []);
  const theme: Theme = choice === 'system' ? (systemDark ? 'dark' : 'light') : choice;
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);
  const choose = (next: ThemeChoice) => {
    try {
      if (next === 'system') localStorage.removeItem(KEY);
      else localStorage.setItem(KEY, next);
    } catch {
      // not kept: fine
    }
    setChoice(next);
  };
  return [choice, choose, theme];
}
