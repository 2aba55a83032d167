/**
 * The helm-diff plugin, which `helmfile apply` (and `diff`) runs as `helm diff upgrade`, at a
 * pinned release, built from its Go module (whose go.mod has no replaces) and laid out as an
 * installed Helm plugin: `plugins/diff/plugin.yaml` and `plugins/diff/bin/diff`, the path its
 * plugin.yaml's command names. A test points Helm at it with `HELM_PLUGINS`
 * (`EngineBinaries.helmPlugins`).
 *
 * `helm plugin install` is not used: it runs the plugin's install hook, which downloads a released
 * binary. Helm only needs the folder; helmfile reads the plugin's version from its plugin.yaml.
 *
 * That plugin.yaml is written here, not taken from the release: the release's names its command
 * in a `platformCommand` entry without `os` and has `platformHooks`, which Helm 3.17 refuses
 * (its loader is strict and knows neither); the plain `command` form loads in Helm 3 and 4 alike.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { GoComponent } from './go-components';
import { moduleDir, wrapperComponent } from './go-wrapper';

export const HELM_DIFF_VERSION = 'v3.13.2';
const MODULE = 'github.com/databus23/helm-diff/v3';
const VERSION = HELM_DIFF_VERSION.replace(/^v/, '');
const PLUGIN_DIR = path.join('plugins', 'diff');

/** The helm-diff component and the folder to give Helm as `HELM_PLUGINS`. */
export interface HelmPluginComponent extends GoComponent {
  readonly pluginsDir: string;
}

/** The plugin's manifest, in the form Helm 3.17 and Helm 4 both load. */
function pluginYaml(): string {
  return ['name: diff', `version: "${VERSION}"`, 'usage: "Preview helm upgrade changes as a diff"', 'description: "Preview helm upgrade changes as a diff"', 'command: "$HELM_PLUGIN_DIR/bin/diff"', ''].join('\n');
}

export function helmDiff(): HelmPluginComponent {
  const component = wrapperComponent({
    component: 'helm-diff',
    version: VERSION,
    requires: { [MODULE]: HELM_DIFF_VERSION },
    binaries: { diff: MODULE },
    // What `helm diff version` prints (upstream's Makefile sets the same variable).
    ldflags: `-X ${MODULE}/cmd.Version=${VERSION}`,
    binDir: path.join(PLUGIN_DIR, 'bin'),
    stamp: { pluginYaml: pluginYaml() },
    async prepare(src, env) {
      // helmfile decides which diff flags it may pass by the version in plugin.yaml: the one the
      // release says it is.
      const upstream = fs.readFileSync(path.join(moduleDir(src, MODULE, env), 'plugin.yaml'), 'utf8');
      const version = /^version:\s*"?([^"\s]+)"?\s*$/m.exec(upstream)?.[1];
      if (version !== VERSION) throw new Error(`${MODULE}@${HELM_DIFF_VERSION}: its plugin.yaml says version ${version ?? '(none)'}`);
      const plugin = path.join(path.dirname(src), PLUGIN_DIR);
      fs.mkdirSync(plugin, { recursive: true });
      fs.writeFileSync(path.join(plugin, 'plugin.yaml'), pluginYaml());
    },
  });
  return { ...component, pluginsDir: path.join(component.entry.dir, 'plugins') };
}
