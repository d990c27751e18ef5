import {useEffect, useState} from 'react';

/** The site's colour mode, read from `html[data-theme]` because Docusaurus' useColorMode is unavailable in Root. */
export function useDataTheme(): 'light' | 'dark' {
  const read = () =>
    typeof document !== 'undefined' && document.documentElement.dataset.theme === 'dark' ? 'dark' : 'light';
  const [theme, setTheme] = useState<'light' | 'dark'>(read);
  useEffect(() => {
    const observer = new MutationObserver(() => setTheme(read()));
    observer.observe(document.documentElement, {attributes: true, attributeFilter: ['data-theme']});
    setTheme(read());
    return () => observer.disconnect();
  }, []);
  return theme;
}
