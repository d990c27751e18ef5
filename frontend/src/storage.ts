/** localStorage that never throws: private modes and SSR simply remember nothing. */
export const safeStorage = {
  /** Reads a key, or null when storage is unavailable. */
  get(key: string): string | null {
    try {
      return typeof window === 'undefined' ? null : window.localStorage.getItem(key);
    } catch {
      return null;
    }
  },
  /** Writes a key (null removes it); failures are ignored. */
  set(key: string, value: string | null): void {
    try {
      if (typeof window === 'undefined') return;
      if (value === null) window.localStorage.removeItem(key);
      else window.localStorage.setItem(key, value);
    } catch {
      // Storage full or disabled: the conversation just won't survive a reload.
    }
  },
};
