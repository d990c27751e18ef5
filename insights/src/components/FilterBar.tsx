// The period, docs version and locale the insights are about.
import {type FormEvent, useEffect, useState} from 'react';
import type {Filters} from '../types';

interface Props {
  shown: Filters;
  busy: boolean;
  onApply: (filters: Filters) => void;
}

export function FilterBar({shown, busy, onApply}: Props) {
  const [draft, setDraft] = useState<Filters>(shown);
  useEffect(() => setDraft(shown), [shown]);
  const field = (key: keyof Filters) => ({
    id: `filter-${key}`,
    name: key,
    value: draft[key],
    onChange: (e: {target: {value: string}}) => setDraft({...draft, [key]: e.target.value}),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onApply(draft);
  };
  return (
    <form className="filters" onSubmit={submit} aria-label="What to show">
      <span className="field">
        <label htmlFor="filter-since">From</label>
        <input type="date" {...field('since')} />
      </span>
      <span className="field">
        <label htmlFor="filter-until">to</label>
        <input type="date" {...field('until')} />
      </span>
      <span className="field">
        <label htmlFor="filter-version">Version</label>
        <input type="text" placeholder="all" size={8} {...field('version')} />
      </span>
      <span className="field">
        <label htmlFor="filter-locale">Locale</label>
        <input type="text" placeholder="all" size={5} {...field('locale')} />
      </span>
      <button type="submit" disabled={busy}>
        {busy ? 'Loading…' : 'Show'}
      </button>
    </form>
  );
}
