/** The keyboard shortcut that opens the panel: "mod+i" style, "mod" being ⌘ on Apple systems, Ctrl elsewhere. */

export interface Shortcut {
  matches(event: KeyboardEvent): boolean;
  /** How to show it to the reader: "⌘I" or "Ctrl+I". */
  label: string;
}

function isApple(): boolean {
  return typeof navigator !== 'undefined' && /Mac|iPhone|iPad|iPod/.test(navigator.platform || navigator.userAgent);
}

/** Parses "mod+i" (modifiers mod, ctrl, meta, alt, shift, then one key); null for none or a bad spec. */
export function parseShortcut(spec: string | false | undefined, apple: boolean = isApple()): Shortcut | null {
  if (!spec) return null;
  const parts = spec.toLowerCase().split('+');
  const key = parts.pop();
  if (!key || key.length !== 1) return null;
  const want = {ctrl: false, meta: false, alt: false, shift: false};
  for (const part of parts) {
    if (part === 'mod') want[apple ? 'meta' : 'ctrl'] = true;
    else if (part in want) want[part as keyof typeof want] = true;
    else return null;
  }
  const names = [want.ctrl && 'Ctrl', want.alt && (apple ? '⌥' : 'Alt'), want.shift && (apple ? '⇧' : 'Shift'), want.meta && (apple ? '⌘' : 'Meta')].filter(Boolean);
  return {
    matches: (event) =>
      event.key.toLowerCase() === key &&
      event.ctrlKey === want.ctrl &&
      event.metaKey === want.meta &&
      event.altKey === want.alt &&
      event.shiftKey === want.shift,
    label: [...names, key.toUpperCase()].join(apple ? '' : '+'),
  };
}
