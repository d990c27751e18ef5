// The insights page: the token once, then the period's charts and tables.
import {useCallback, useEffect, useState} from 'react';
import {fetchInsights} from './api';
import {FilterBar} from './components/FilterBar';
import {TokenForm} from './components/TokenForm';
import {Chapters} from './sections/Chapters';
import {Cited} from './sections/Cited';
import {Gaps} from './sections/Gaps';
import {OverTime} from './sections/OverTime';
import {Overview} from './sections/Overview';
import {RatedDown} from './sections/RatedDown';
import {type ThemeChoice, useTheme} from './theme';
import {saveToken, savedToken} from './token';
import type {Filters, Insights} from './types';

const NO_FILTERS: Filters = {since: '', until: '', version: '', locale: ''};

export function App() {
  const [token, setToken] = useState(savedToken);
  const [insights, setInsights] = useState<Insights | null>(null);
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const [message, setMessage] = useState('');
  const [busy, setBusy] = useState(false);
  const [choice, choose, theme] = useTheme();

  const load = useCallback(async (withToken: string, wanted: Filters) => {
    setBusy(true);
    const outcome = await fetchInsights(withToken, wanted, location.href);
    setBusy(false);
    if (outcome.kind === 'bad-token') {
      saveToken('');
      setToken('');
      setInsights(null);
      setMessage(outcome.message);
      return;
    }
    if (outcome.kind === 'error') {
      setMessage(outcome.message);
      return;
    }
    saveToken(withToken);
    setMessage('');
    setInsights(outcome.insights);
    const {since, until, version, locale} = outcome.insights;
    setFilters({since, until, version: version ?? '', locale: locale ?? ''});
  }, []);

  useEffect(() => {
    if (token) void load(token, NO_FILTERS);
    // Once, with the token this tab kept.
  }, []);

  const signIn = (entered: string) => {
    setToken(entered);
    void load(entered, filters);
  };
  const forget = () => {
    saveToken('');
    setToken('');
    setInsights(null);
    setMessage('');
  };

  return (
    <>
      <header className="top">
        <h1>
          bookchat <span className="muted">insights</span>
        </h1>
        <div className="top-actions">
          <label htmlFor="theme">Theme</label>
          <select id="theme" value={choice} onChange={(e) => choose(e.target.value as ThemeChoice)}>
            <option value="system">System</option>
            <option value="light">Light</option>
            <option value="dark">Dark</option>
          </select>
          {insights ? (
            <button type="button" className="plain" onClick={forget}>
              Forget token
            </button>
          ) : null}
        </div>
      </header>
      <main>
        {!insights || !token ? (
          <TokenForm message={message} busy={busy} onToken={signIn} />
        ) : (
          <>
            <FilterBar shown={filters} busy={busy} onApply={(wanted) => void load(token, wanted)} />
            {message ? (
              <p role="alert" className="alert">
                {message}
              </p>
            ) : null}
            <div className="grid" aria-busy={busy}>
              <Overview insights={insights} />
              <OverTime days={insights.days} theme={theme} />
              <Chapters chapters={insights.chapters} bookUrl={insights.book_url} theme={theme} />
              <Cited sections={insights.cited_sections} bookUrl={insights.book_url} theme={theme} />
              <Gaps gaps={insights.gaps} bookUrl={insights.book_url} />
              <RatedDown rows={insights.rated_down} bookUrl={insights.book_url} />
            </div>
            <p className="muted foot">
              Counts come from the conversations the server keeps (no reader is identified); days are UTC. Questions older than the server’s
              retention period are deleted.
            </p>
          </>
        )}
      </main>
    </>
  );
}
