import React, {useMemo} from 'react';
import type {Definition, Nodes, Parents, Root} from 'mdast';
import {isSafeHref, parseInlineMarkdown, parseMarkdown, splitCitations} from '../markdown';
import {fill, useLabels} from '../labels';
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
  const [tree, definitions] = useMemo(() => {
    const root = parseMarkdown(text);
    return [root, definitionsOf(root)] as const;
  }, [text]);
  const sourceLabel = useLabels().sourceN;
  const ctx = {citations, onCite, citeIdPrefix, definitions, tight: false, sourceLabel};
  return <div className="bookchat-md">{renderChildren(tree, ctx)}</div>;
}

/** Renders one line of inline Markdown (code, emphasis, links) with the same safety, e.g. excerpts. */
export function InlineMarkdown({text}: {text: string}): React.JSX.Element {
  const tree = useMemo(() => parseInlineMarkdown(text), [text]);
  const paragraph = tree.children[0];
  const ctx = {citations: [], citeIdPrefix: '', definitions: new Map(), tight: false, sourceLabel: ''};
  return <>{paragraph && 'children' in paragraph ? renderChildren(paragraph, ctx) : null}</>;
}

interface Ctx {
  citations: Citation[];
  onCite?: (index: number) => void;
  citeIdPrefix: string;
  /** Link reference definitions by identifier: `[text][ref]` links point at them. */
  definitions: Map<string, Definition>;
  /** Inside a tight list item, whose paragraphs render without <p> (as CommonMark prescribes). */
  tight: boolean;
  /** "Source {n}: {title}", the label of a `[n]` marker. */
  sourceLabel: string;
}

function definitionsOf(tree: Root): Map<string, Definition> {
  const definitions = new Map<string, Definition>();
  const visit = (node: Nodes) => {
    if (node.type === 'definition') definitions.set(node.identifier, node);
    else if ('children' in node) node.children.forEach(visit);
  };
  visit(tree);
  return definitions;
}

// Containers of blocks: raw HTML standing there as a block becomes a paragraph of its text.
const BLOCK_PARENTS = new Set(['root', 'blockquote', 'listItem', 'footnoteDefinition']);

function renderChildren(parent: Parents, ctx: Ctx): React.ReactNode[] {
  return parent.children.map((child, i) =>
    child.type === 'html' && !ctx.tight && BLOCK_PARENTS.has(parent.type) ? <p key={i}>{child.value}</p> : renderNode(child, i, ctx),
  );
}

/** Only the node types listed here become elements; raw HTML and anything else show their text. */
function renderNode(node: Nodes, key: number, ctx: Ctx): React.ReactNode {
  switch (node.type) {
    case 'paragraph':
      return ctx.tight ? <React.Fragment key={key}>{renderChildren(node, ctx)}</React.Fragment> : <p key={key}>{renderChildren(node, ctx)}</p>;
    case 'heading':
      // Answer headings must not join the page outline, so they are styled text.
      return (
        <p key={key} className={`bookchat-md-heading bookchat-md-h${node.depth}`}>
          <strong>{renderChildren(node, ctx)}</strong>
        </p>
      );
    case 'code':
      return <CodeBlock key={key} code={node.value} language={(node.lang ?? '').toLowerCase()} />;
    case 'list': {
      const inner = {...ctx, tight: !node.spread && !node.children.some((item) => item.spread)};
      const items = node.children.map((item, j) => renderNode(item, j, inner));
      return node.ordered ? (
        <ol key={key} start={node.start ?? 1}>{items}</ol>
      ) : (
        <ul key={key}>{items}</ul>
      );
    }
    case 'listItem':
      return (
        <li key={key}>
          {typeof node.checked === 'boolean' && <input type="checkbox" checked={node.checked} disabled readOnly />}
          {renderChildren(node, ctx)}
        </li>
      );
    case 'blockquote':
      return <blockquote key={key}>{renderChildren(node, {...ctx, tight: false})}</blockquote>;
    case 'table': {
      const [head, ...body] = node.children;
      const cells = (row: typeof head, Cell: 'th' | 'td') =>
        row.children.map((cell, j) => (
          <Cell key={j} style={node.align?.[j] ? {textAlign: node.align[j]!} : undefined}>
            {renderChildren(cell, ctx)}
          </Cell>
        ));
      return (
        <div key={key} className="bookchat-md-table">
          <table>
            <thead>
              <tr>{head && cells(head, 'th')}</tr>
            </thead>
            <tbody>
              {body.map((row, r) => (
                <tr key={r}>{cells(row, 'td')}</tr>
              ))}
            </tbody>
          </table>
        </div>
      );
    }
    case 'thematicBreak':
      return <hr key={key} />;
    case 'html':
      return <React.Fragment key={key}>{node.value}</React.Fragment>;
    case 'text':
      return <React.Fragment key={key}>{renderText(node.value, ctx)}</React.Fragment>;
    case 'inlineCode':
      return <code key={key}>{node.value}</code>;
    case 'strong':
      return <strong key={key}>{renderChildren(node, ctx)}</strong>;
    case 'emphasis':
      return <em key={key}>{renderChildren(node, ctx)}</em>;
    case 'delete':
      return <del key={key}>{renderChildren(node, ctx)}</del>;
    case 'break':
      return <br key={key} />;
    case 'link':
    case 'linkReference': {
      const href = node.type === 'link' ? node.url : (ctx.definitions.get(node.identifier)?.url ?? '');
      const children = renderChildren(node, ctx);
      return isSafeHref(href) ? (
        <SiteLink key={key} href={href}>
          {children}
        </SiteLink>
      ) : (
        <React.Fragment key={key}>{children}</React.Fragment>
      );
    }
    case 'image':
    case 'imageReference':
      // Answers load nothing from elsewhere: an image is its description.
      return <React.Fragment key={key}>{node.alt}</React.Fragment>;
    case 'footnoteReference':
      return <React.Fragment key={key}>[^{node.label ?? node.identifier}]</React.Fragment>;
    case 'definition':
      return null;
    default:
      return 'children' in node ? (
        <React.Fragment key={key}>{renderChildren(node, ctx)}</React.Fragment>
      ) : 'value' in node ? (
        <React.Fragment key={key}>{node.value}</React.Fragment>
      ) : null;
  }
}

function renderText(text: string, ctx: Ctx): React.ReactNode[] {
  return splitCitations(text).map((part, i) => {
    if (typeof part === 'string') return <React.Fragment key={i}>{part}</React.Fragment>;
    const citation = ctx.citations.find((c) => c.index === part);
    if (!citation) return <React.Fragment key={i}>[{part}]</React.Fragment>;
    const onClick = (event: React.MouseEvent) => {
      event.preventDefault();
      ctx.onCite?.(part);
    };
    return (
      <a
        key={i}
        href={`#${ctx.citeIdPrefix}-${part}`}
        className="bookchat-marker"
        onClick={onClick}
        aria-label={fill(ctx.sourceLabel, {n: part, title: citation.section || citation.chapter_title})}>
        [{part}]
      </a>
    );
  });
}
