import {describe, expect, it} from 'vitest';
import {insightsUrl} from '../src/api';
import {bookHref} from '../src/links';

describe('links into the book', () => {
  it('resolve a section path against the book address, keeping its anchor', () => {
    expect(bookHref('http://127.0.0.1:3000', '/docs/branching/merging#fast-forward')).toBe('http://127.0.0.1:3000/docs/branching/merging#fast-forward');
  });

  it('are not links without a book address or with another scheme', () => {
    expect(bookHref(null, '/docs/intro')).toBeNull();
    expect(bookHref('http://127.0.0.1:3000', 'javascript:alert(1)')).toBeNull();
    expect(bookHref('http://127.0.0.1:3000', null)).toBeNull();
  });
});

describe('the insights URL', () => {
  it('is the API beside the page, with only the filters that are set', () => {
    const url = insightsUrl({since: '2026-01-01', until: '', version: ' 1.0 ', locale: ''}, 'http://127.0.0.1:8000/insights/');
    expect(url).toBe('http://127.0.0.1:8000/api/admin/insights?since=2026-01-01&version=1.0');
  });

  it('works behind a path prefix', () => {
    expect(insightsUrl({since: '', until: '', version: '', locale: ''}, 'http://h/prefix/insights/')).toBe('http://h/prefix/api/admin/insights');
  });
});
