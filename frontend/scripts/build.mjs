// Builds lib/: the plugin (CommonJS, Node), the widget and theme components (ES modules for the
// site's bundler), their type declarations, and the stylesheet. `npm pack` runs it (prepack).
import {spawnSync} from 'node:child_process';
import {copyFileSync, rmSync} from 'node:fs';
import {createRequire} from 'node:module';
import {dirname, join} from 'node:path';
import {fileURLToPath} from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
rmSync(join(root, 'lib'), {recursive: true, force: true});
for (const project of ['tsconfig.server.json', 'tsconfig.client.json']) {
  const result = spawnSync(process.execPath, [tsc, '-p', project], {cwd: root, stdio: 'inherit'});
  if (result.status !== 0) process.exit(result.status ?? 1);
}
copyFileSync(join(root, 'src', 'styles.css'), join(root, 'lib', 'styles.css'));
