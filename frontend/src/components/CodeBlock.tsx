import React from 'react';
import {Highlight, themes} from 'prism-react-renderer';
import {useDataTheme} from '../useDataTheme';
import {useLabels} from '../labels';
import {CopyButton} from './CopyButton';

/** A highlighted, copyable code block; the palette follows the site's colour mode. */
export function CodeBlock({code, language}: {code: string; language: string}): React.JSX.Element {
  const labels = useLabels();
  const theme = useDataTheme() === 'dark' ? themes.dracula : themes.github;
  const lang = language === 'sh' || language === 'shell' || language === 'console' ? 'bash' : language || 'text';
  return (
    <div className="bookchat-code">
      <Highlight code={code} language={lang} theme={theme}>
        {({className, style, tokens, getLineProps, getTokenProps}) => (
          <pre className={className} style={style} tabIndex={0} aria-label={language ? `${language} code` : 'code'}>
            <code>
              {tokens.map((line, i) => (
                <span key={i} {...getLineProps({line})}>
                  {line.map((token, j) => (
                    <span key={j} {...getTokenProps({token})} />
                  ))}
                  {'\n'}
                </span>
              ))}
            </code>
          </pre>
        )}
      </Highlight>
      <CopyButton text={code} label={labels.copyCode} short={labels.copy} className="bookchat-code-copy" />
    </div>
  );
}
