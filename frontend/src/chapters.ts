import type {Chapter} from './types';

/** Normalises a URL or path for comparison: no origin, query, hash or trailing slash. */
export function normalizePath(url: string): string {
  const path = url.replace(/^[a-z]+:\/\/[^/]+/i, '').split(/[?#]/)[0];
  return path.replace(/\/+$/, '') || '/';
}

/** Finds the chapter whose pages include `permalink`, ignoring trailing slashes. */
export function findChapter(chapters: Chapter[], permalink: string | null | undefined): Chapter | null {
  if (!permalink) return null;
  const target = normalizePath(permalink);
  return (
    chapters.find((chapter) => chapter.pages.some((page) => normalizePath(page.url) === target)) ?? null
  );
}
