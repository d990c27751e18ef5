import React, {useMemo} from 'react';
import {parseInline, parseMarkdown, type Block, type Inline} from '../markdown';
import {SiteLink} from '../navigation';
import type {Citation} from '../types';
import {CodeBlock} from './CodeBlock';

/** Props of Markdown. */
export interface MarkdownProps {
  text: string;
  citations?: Citation[];
  /** Called when a `[n]` marker is activated. */
  onCite?: (index: number) => void;
  /** Prefix for the ids of the citation entries that markers point at. */
  citeIdPrefix?: string;
}

/** Renders answer Markdown as React elements only, so HTML in it is shown as text. */
export function Markdown({text, citations = [], onCite, citeIdPrefix = 'bookchat-cite'}: MarkdownProps): React.JSX.Element {
  const blocks = useMemo(() => parseMarkdown(text), [text]);
  const ctx = {citations, onCite, citeIdPrefix};
  return <div className="bookchat-md">{blocks.map((block, i) => renderBlock(block, i, ctx))}</div>;
}

/** Renders one line of inline Markdown (code, emphasis, links) with the same safety, e.g. excerpts. */
export function InlineMarkdown({text}: {text: string}): React.JSX.Element {
  const nodes = useMemo(() => parseInline(text.replace(/\s*\n\s*/g, ' ')), [text]);
  return <>{renderInlines(nodes, {citations: [], citeIdPrefix: ''})}</>;
}

interface Ctx {
  citations: Citation[];
  onCite?: (index: number) => void;
  citeIdPrefix: string;
}

function renderBlock(block: Block, key: number, ctx: Ctx): React.ReactNode {
  switch (block.type) {
    case 'paragraph':
      return <p key={key}>{renderInlines(block.children, ctx)}</p>;
    case 'heading':
      // Answer headings must not join the page outline, so they are styled text.
      return (
        <p key={key} className={`bookchat-md-heading bookchat-md-h${block.level}`}>
          <strong>{renderInlines(block.children, ctx)}</strong>
        </p>
      );
    case 'code':
      return <CodeBlock key={key} code={block.text} language={block.lang} />;
    case 'list': {
      const items = block.items.map((item, j) => <li key={j}>{item.map((b, k) => renderBlock(b, k, ctx))}</li>);
      return block.ordered ? (
        <ol key={key} start={block.start}>{items}</ol>
      ) : (
        <ul key={key}>{items}</ul>
      );
    }
    case 'quote':
      return <blockquote key={key}>{block.children.map((b, k) => renderBlock(b, k, ctx))}</blockquote>;
    case 'table':
      return (
        <div key={key} className="bookchat-md-table">
          <table>
            <thead>
              <tr>{block.header.map((cell, j) => <th key={j}>{renderInlines(cell, ctx)}</th>)}</tr>
            </thead>
            <tbody>
              {block.rows.map((row, r) => (
                <tr key={r}>{row.map((cell, j) => <td key={j}>{renderInlines(cell, ctx)}</td>)}</tr>
              ))}
            </tbody>
          </table>
        </div>
      );
    case 'rule':
      return <hr key={key} />;
  }
}

function renderInlines(nodes: Inline[], ctx: Ctx): React.ReactNode[] {
  return nodes.map((node, i) => renderInline(node, i, ctx));
}

function renderInline(node: Inline, key: number, ctx: Ctx): React.ReactNode {
  switch (node.type) {
    case 'text':
      return <React.Fragment key={key}>{node.text}</React.Fragment>;
    case 'code':
      return <code key={key}>{node.text}</code>;
    case 'strong':
      return <strong key={key}>{renderInlines(node.children, ctx)}</strong>;
    case 'em':
      return <em key={key}>{renderInlines(node.children, ctx)}</em>;
    case 'link':
      return (
        <SiteLink key={key} href={node.href}>
          {renderInlines(node.children, ctx)}
        </SiteLink>
      );
    case 'cite': {
      const citation = ctx.citations.find((c) => c.index === node.index);
      if (!citation) return <React.Fragment key={key}>[{node.index}]</React.Fragment>;
      const onClick = (event: React.MouseEvent) => {
        event.preventDefault();
        ctx.onCite?.(node.index);
      };
      return (
        <a
          key={key}
          href={`#${ctx.citeIdPrefix}-${node.index}`}
          className="bookchat-marker"
          onClick={onClick}
          aria-label={`Source ${node.index}: ${citation.section || citation.chapter_title}`}>
          [{node.index}]
        </a>
      );
    }
  }
}
