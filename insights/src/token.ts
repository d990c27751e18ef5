// The admin token lives in this tab only (sessionStorage): asked once, gone when the tab closes.
const KEY = 'bookchat-insights-token';

export function savedToken(storage: Storage | undefined = globalThis.sessionStorage): string {
  try {
    return storage?.getItem(KEY) ?? '';
  } catch {
    return '';
  }
}

export function saveToken(token: string, storage: Storage | undefined = globalThis.sessionStorage): void {
  try {
    if (token) storage?.setItem(KEY, token);
    else storage?.removeItem(KEY);
  } catch {
    // storage refused (private mode): the token lasts as long as the page then
  }
}
