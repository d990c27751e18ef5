import React, {useEffect, useState} from 'react';
import {copyText} from '../clipboard';
import {useLabels} from '../labels';

/** A button that copies `text` and confirms for a moment. */
export function CopyButton({text, label, short, className}: {text: string; label: string; short?: string; className?: string}): React.JSX.Element {
  const labels = useLabels();
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), 1500);
    return () => clearTimeout(timer);
  }, [state]);
  return (
    <button
      type="button"
      className={`bookchat-btn bookchat-btn-small ${className ?? ''}`}
      onClick={async () => setState((await copyText(text)) ? 'copied' : 'failed')}
      aria-label={state === 'idle' ? label : undefined}>
      {state === 'copied' ? labels.copied : state === 'failed' ? labels.copyFailed : (short ?? label)}
    </button>
  );
}
