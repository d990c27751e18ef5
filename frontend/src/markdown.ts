/**
 * A small Markdown parser for answers. It produces a plain tree (never HTML strings), so raw
 * HTML in an answer can only ever be rendered as text: safety comes from the shape, not from
 * sanitising. It covers what extractive answers from a book contain; anything else stays text.
 */

export type Inline =
  | {type: 'text'; text: string}
  | {type: 'code'; text: string}
  | {type: 'strong'; children: Inline[]}
  | {type: 'em'; children: Inline[]}
  | {type: 'link'; href: string; children: Inline[]}
  | {type: 'cite'; index: number};

export type Block =
  | {type: 'paragraph'; children: Inline[]}
  | {type: 'heading'; level: number; children: Inline[]}
  | {type: 'code'; lang: string; text: string}
  | {type: 'list'; ordered: boolean; start: number; items: Block[][]}
  | {type: 'quote'; children: Block[]}
  | {type: 'table'; header: Inline[][]; rows: Inline[][][]}
  | {type: 'rule'};

const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([^`\s]*)/;
const HEADING = /^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$/;
const RULE = /^ {0,3}([-*_])(\s*\1){2,}\s*$/;
const LIST_ITEM = /^( {0,3})([-*+]|\d{1,9}[.)])\s+(.*)$/;
const QUOTE = /^ {0,3}>\s?(.*)$/;
const TABLE_DELIMITER = /^\s*\|?\s*:?-{1,}:?\s*(\|\s*:?-{1,}:?\s*)*\|?\s*$/;

/** True for link targets we allow: http(s), site-relative paths and in-page anchors. */
export function isSafeHref(href: string): boolean {
  return /^(https?:\/\/|\/(?!\/)|#|\.{1,2}\/)/i.test(href.trim()) && !/[\u0000-\u001f\s]/.test(href.trim());
}

/** Parses Markdown into blocks. */
export function parseMarkdown(source: string): Block[] {
  return parseBlocks(source.replace(/\r\n?/g, '\n').split('\n'));
}

function startsBlock(line: string): boolean {
  return FENCE.test(line) || HEADING.test(line) || RULE.test(line) || LIST_ITEM.test(line) || QUOTE.test(line);
}

function parseBlocks(lines: string[]): Block[] {
  const blocks: Block[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (line.trim() === '') {
      i++;
      continue;
    }
    const fence = FENCE.exec(line);
    if (fence) {
      const marker = fence[1];
      const body: string[] = [];
      i++;
      // An unclosed fence (an answer still streaming) runs to the end.
      while (i < lines.length && !new RegExp(`^ {0,3}${marker[0]}{${marker.length},}\\s*$`).test(lines[i])) {
        body.push(lines[i]);
        i++;
      }
      i++;
      blocks.push({type: 'code', lang: fence[2].toLowerCase(), text: body.join('\n')});
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      blocks.push({type: 'heading', level: heading[1].length, children: parseInline(heading[2])});
      i++;
      continue;
    }
    if (RULE.test(line)) {
      blocks.push({type: 'rule'});
      i++;
      continue;
    }
    if (QUOTE.test(line)) {
      const inner: string[] = [];
      while (i < lines.length && lines[i].trim() !== '' && (QUOTE.test(lines[i]) || !startsBlock(lines[i]))) {
        const m = QUOTE.exec(lines[i]);
        inner.push(m ? m[1] : lines[i]);
        i++;
      }
      blocks.push({type: 'quote', children: parseBlocks(inner)});
      continue;
    }
    const item = LIST_ITEM.exec(line);
    if (item) {
      i = parseList(lines, i, blocks);
      continue;
    }
    if (line.includes('|') && i + 1 < lines.length && TABLE_DELIMITER.test(lines[i + 1]) && lines[i + 1].includes('-')) {
      const header = splitRow(line);
      const rows: Inline[][][] = [];
      i += 2;
      while (i < lines.length && lines[i].includes('|') && lines[i].trim() !== '') {
        rows.push(splitRow(lines[i]));
        i++;
      }
      blocks.push({type: 'table', header, rows});
      continue;
    }
    const para: string[] = [];
    while (i < lines.length && lines[i].trim() !== '' && (para.length === 0 || !startsBlock(lines[i]))) {
      para.push(lines[i].trim());
      i++;
    }
    blocks.push({type: 'paragraph', children: parseInline(para.join('\n'))});
  }
  return blocks;
}

function parseList(lines: string[], start: number, blocks: Block[]): number {
  const first = LIST_ITEM.exec(lines[start])!;
  const ordered = /\d/.test(first[2]);
  const items: Block[][] = [];
  let i = start;
  while (i < lines.length) {
    const m = LIST_ITEM.exec(lines[i]);
    if (!m || /\d/.test(m[2]) !== ordered) break;
    const contentIndent = m[1].length + m[2].length + 1;
    const body = [m[3]];
    i++;
    // Indented lines (nested lists, continued text) belong to the item; a blank line ends it
    // unless more indented content follows.
    while (i < lines.length) {
      const next = lines[i];
      if (next.trim() === '') {
        if (i + 1 < lines.length && /^\s{2,}\S/.test(lines[i + 1])) {
          body.push('');
          i++;
          continue;
        }
        break;
      }
      if (/^\s{2,}/.test(next)) {
        body.push(next.slice(Math.min(contentIndent, next.length - next.trimStart().length)));
        i++;
        continue;
      }
      if (startsBlock(next)) break;
      body.push(next.trim());
      i++;
    }
    items.push(parseBlocks(body));
    while (i < lines.length && lines[i].trim() === '' && i + 1 < lines.length && LIST_ITEM.exec(lines[i + 1])?.[1] === '') i++;
  }
  blocks.push({type: 'list', ordered, start: ordered ? parseInt(first[2], 10) : 1, items});
  return i;
}

function splitRow(line: string): Inline[][] {
  let row = line.trim();
  if (row.startsWith('|')) row = row.slice(1);
  if (row.endsWith('|') && !row.endsWith('\\|')) row = row.slice(0, -1);
  return row.split(/(?<!\\)\|/).map((cell) => parseInline(cell.trim().replace(/\\\|/g, '|')));
}

/** Parses inline Markdown: code spans, emphasis, safe links and `[n]` citation markers. */
export function parseInline(text: string): Inline[] {
  const out: Inline[] = [];
  let plain = '';
  const flush = () => {
    if (plain) out.push({type: 'text', text: plain});
    plain = '';
  };
  let i = 0;
  while (i < text.length) {
    const ch = text[i];
    if (ch === '\\' && i + 1 < text.length && /[\\`*_[\]()#+\-.!|<>~]/.test(text[i + 1])) {
      plain += text[i + 1];
      i += 2;
      continue;
    }
    if (ch === '`') {
      const ticks = /^`+/.exec(text.slice(i))![0];
      const end = text.indexOf(ticks, i + ticks.length);
      if (end !== -1) {
        flush();
        out.push({type: 'code', text: text.slice(i + ticks.length, end).replace(/\n/g, ' ').trim() || ' '});
        i = end + ticks.length;
        continue;
      }
      plain += ticks;
      i += ticks.length;
      continue;
    }
    if ((ch === '*' || ch === '_') && text[i + 1] === ch && (ch === '*' || i === 0 || !/\w/.test(text[i - 1]))) {
      const end = findStrongEnd(text, i + 2, ch);
      if (end > i + 2 && text[i + 2] !== ' ') {
        flush();
        out.push({type: 'strong', children: parseInline(text.slice(i + 2, end))});
        i = end + 2;
        continue;
      }
    }
    if (ch === '*' || (ch === '_' && (i === 0 || /[\s(]/.test(text[i - 1])))) {
      const end = findEmphasisEnd(text, i + 1, ch);
      if (end !== -1) {
        flush();
        out.push({type: 'em', children: parseInline(text.slice(i + 1, end))});
        i = end + 1;
        continue;
      }
    }
    if (ch === '[') {
      const cite = /^\[(\d{1,3})\](?!\()/.exec(text.slice(i));
      if (cite) {
        flush();
        out.push({type: 'cite', index: Number(cite[1])});
        i += cite[0].length;
        continue;
      }
      const link = /^\[([^\]\n]+)\]\(\s*<?([^\s()<>]+)>?(?:\s+"[^"]*")?\s*\)/.exec(text.slice(i));
      if (link) {
        flush();
        const children = parseInline(link[1]);
        if (isSafeHref(link[2])) out.push({type: 'link', href: link[2], children});
        else out.push(...children);
        i += link[0].length;
        continue;
      }
    }
    plain += ch;
    i++;
  }
  flush();
  return out;
}

function findStrongEnd(text: string, from: number, ch: string): number {
  // Underscores inside words (snake_case, __dunder__ names) are not emphasis.
  for (let end = text.indexOf(ch + ch, from); end !== -1; end = text.indexOf(ch + ch, end + 1)) {
    if (ch === '*' || end + 2 >= text.length || !/\w/.test(text[end + 2])) return end;
  }
  return -1;
}

function findEmphasisEnd(text: string, from: number, ch: string): number {
  if (from >= text.length || /\s/.test(text[from])) return -1;
  for (let j = from + 1; j < text.length; j++) {
    if (text[j] === '\\') {
      j++;
      continue;
    }
    if (text[j] === ch && text[j - 1] !== ' ' && text[j + 1] !== ch) {
      if (ch === '_' && j + 1 < text.length && /\w/.test(text[j + 1])) continue;
      return j;
    }
  }
  return -1;
}
