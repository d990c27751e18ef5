// Links into the book: a section's URL is a path on the book's site (with the site's base path),
// so it is resolved against the book's address; anything but http(s) is not a link.

/** The absolute address of `url` in the book at `bookUrl`, or null when it cannot be one. */
export function bookHref(bookUrl: string | null, url: string | null): string | null {
  if (!url) return null;
  try {
    const absolute = /^https?:\/\//i.test(url);
    if (!absolute && !bookUrl) return null;
    const resolved = absolute ? new URL(url) : new URL(url, bookUrl ?? undefined);
    return resolved.protocol === 'http:' || resolved.protocol === 'https:' ? resolved.toString() : null;
  } catch {
    return null;
  }
}
