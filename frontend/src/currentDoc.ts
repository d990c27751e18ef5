import {useSyncExternalStore} from 'react';
import type {CurrentDoc} from './types';

// Root sits above the doc page in the tree, so context cannot flow up to it: a tiny store does.
let current: CurrentDoc | null = null;
const listeners = new Set<() => void>();

/** Publishes the doc being read (or null when leaving doc pages). */
export function publishCurrentDoc(doc: CurrentDoc | null): void {
  if (doc === current || (doc && current && doc.id === current.id && doc.permalink === current.permalink)) return;
  current = doc;
  listeners.forEach((listener) => listener());
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Returns the doc being read, re-rendering when it changes. */
export function useCurrentDoc(): CurrentDoc | null {
  return useSyncExternalStore(subscribe, () => current, () => null);
}
