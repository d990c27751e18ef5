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
