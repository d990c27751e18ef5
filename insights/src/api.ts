// One call: the insights for some filters, with the admin token in a header (never the URL).
import type {Filters, Insights} from './types';

export type Outcome =
  | {kind: 'ok'; insights: Insights}
  | {kind: 'bad-token'; message: string}
  | {kind: 'error'; message: string};

export const WRONG_TOKEN =
  'That token was refused: it is not this server’s admin token. Use the "token" from <data>/server.json, which bookchat serve rewrites each time it starts.';
export const NO_ADMIN = 'This server has no admin token (it was not started by bookchat serve), so it shows no insights.';

/** The endpoint's URL for these filters, relative to the page (served at <api>/insights/). */
export function insightsUrl(filters: Filters, page: string): string {
  const url = new URL('../api/admin/insights', page);
  for (const [key, value] of Object.entries(filters)) {
    if (value.trim()) url.searchParams.set(key, value.trim());
  }
  return url.toString();
}

async function detail(response: Response): Promise<string> {
  try {
    const body: unknown = await response.json();
    const found = (body as {detail?: unknown})?.detail;
    if (typeof found === 'string') return found;
    if (Array.isArray(found)) return found.map((d) => (d as {msg?: string})?.msg ?? '').filter(Boolean).join('; ');
  } catch {
    // not JSON: fall through
  }
  return `The server answered ${response.status}.`;
}

/** What the server says for `filters` and `token`, worded for the author. */
export async function fetchInsights(
  token: string,
  filters: Filters,
  page: string,
  fetcher: typeof fetch = fetch,
): Promise<Outcome> {
  let response: Response;
  try {
    response = await fetcher(insightsUrl(filters, page), {
      headers: {Authorization: `Bearer ${token}`, Accept: 'application/json'},
      cache: 'no-store',
      credentials: 'omit',
      referrerPolicy: 'no-referrer',
    });
  } catch {
    return {kind: 'error', message: 'The bookchat server did not answer. Is it running?'};
  }
  if (response.status === 401) return {kind: 'bad-token', message: 'Enter the admin token.'};
  if (response.status === 403) {
    const said = await detail(response);
    return {kind: 'bad-token', message: /disabled/i.test(said) ? NO_ADMIN : WRONG_TOKEN};
  }
  if (!response.ok) return {kind: 'error', message: await detail(response)};
  return {kind: 'ok', insights: (await response.json()) as Insights};
}
