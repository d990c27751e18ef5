// The theme's own component, as the site's bundler resolves it (swizzlable).
declare module '@theme/BookChat' {
  import type React from 'react';

  export default function BookChat(): React.JSX.Element;
}
