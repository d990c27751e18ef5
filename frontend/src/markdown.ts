/**
 * Answers are Markdown. micromark (the CommonMark + GFM parser behind remark) turns them into an
 * mdast tree, never into HTML strings; components/Markdown.tsx renders the tree as React
 * elements. Raw HTML arrives as `html` nodes that are rendered as text, and links pass
 * `isSafeHref`: safety comes from what the renderer allows, not from cleaning HTML afterwards.
 */
import type {Root} from 'mdast';
import {fromMarkdown} from 'mdast-util-from-markdown';
import {gfmFromMarkdown} from 'mdast-util-gfm';
import {gfm} from 'micromark-extension-gfm';

/** True for link targets we allow: http(s), site-relative paths and in-page anchors. */
export function isSafeHref(href: string): boolean {
  return /^(https?:\/\/|\/(?!\/)|#|\.{1,2}\/)/i.test(href.trim()) && !/[\u0000-\u001f\s]/.test(href.trim());
}

/** Parses Markdown (CommonMark with GitHub's tables, strikethrough, task lists and autolinks). */
export function parseMarkdown(source: string): Root {
  return fromMarkdown(source, {extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()]});
}

// Excerpts are one run of text: a leading "1." or "#" in a quoted passage is not a list or a heading.
const BLOCK_CONSTRUCTS = [
  'blockQuote',
  'codeFenced',
  'codeIndented',
  'definition',
  'headingAtx',
  'htmlFlow',
  'list',
  'setextUnderline',
  'thematicBreak',
];

/** Parses inline Markdown only (code, emphasis, links): the result is at most one paragraph. */
export function parseInlineMarkdown(source: string): Root {
  return fromMarkdown(source.replace(/\s*\n\s*/g, ' ').trim(), {
    extensions: [gfm(), {disable: {null: BLOCK_CONSTRUCTS}}],
    mdastExtensions: [gfmFromMarkdown()],
  });
}

/** Splits text at `[n]` citation markers: strings stay text, numbers are markers. */
export function splitCitations(text: string): Array<string | number> {
  return text.split(/\[(\d{1,3})\](?!\()/).map((part, i) => (i % 2 ? Number(part) : part)).filter((part) => part !== '');
}

/** The positions of the `|` that separate table cells: none inside code spans or escaped. */
function cellPipes(text: string): number[] {
  const pipes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === '\\') {
      i += 1;
    } else if (char === '`') {
      let run = 1;
      while (text[i + run] === '`') run += 1;
      const fence = '`'.repeat(run);
      let close = text.indexOf(fence, i + run);
      while (close !== -1 && text[close + run] === '`') close = text.indexOf(fence, close + run + 1);
      // An unclosed run is literal backticks (CommonMark): go on after it.
      i = close === -1 ? i + run - 1 : close + run - 1;
    } else if (char === '|') {
      pipes.push(i);
    }
  }
  return pipes;
}

/**
 * Table rows in an excerpt as one line of text a card can show: "| `git branch -d x` | Delete |
 * | `git branch -m a b` | Rename |" becomes "`git branch -d x`: Delete; `git branch -m a b`:
 * Rename". A row out of its table is unreadable as pipes, and a table cannot be rebuilt from it.
 * Other text, before or after the rows, is kept as it is.
 */
export function tableRowsAsText(excerpt: string): string {
  const text = excerpt.trim();
  const pipes = cellPipes(text);
  if (pipes.length < 2 || !(text.startsWith('|') || text.endsWith('|'))) return excerpt;
  const segments = [text.slice(0, pipes[0]), ...pipes.map((at, i) => text.slice(at + 1, pipes[i + 1] ?? text.length))];
  const before = segments[0].trim();
  const after = segments[segments.length - 1].trim();
  const rows: string[][] = [[]];
  for (const segment of segments.slice(1, -1)) {
    const cell = segment.trim();
    // "| |" between two rows; a delimiter row's cells ("---", ":-:") say nothing.
    if (cell === '') rows.push([]);
    else if (!/^:?-+:?$/.test(cell)) rows[rows.length - 1].push(cell);
  }
  const lines = rows.filter((cells) => cells.length).map((cells) => (cells.length === 1 ? cells[0] : `${cells[0]}: ${cells.slice(1).join(', ')}`));
  let shown = lines.join('; ');
  if (shown && after && !/[.!?:;]$/.test(shown)) shown += '.';
  return [before, shown, after].filter(Boolean).join(' ');
}
