import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

export const SITES = path.resolve(__dirname, '..', '..', '..', 'shared', 'sites');

/** Sites of ../shared/sites that Deckhand rendered (they have a rendered.yaml). */
export function renderedSites(): string[] {
  return fs.readdirSync(SITES).filter((s) => fs.existsSync(path.join(SITES, s, 'rendered.yaml'))).sort();
}

/** A scratch site repository: `files` by path relative to it. */
export function siteRepo(files: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'armada-cdk-pegleg-'));
  for (const [rel, text] of Object.entries(files)) {
    const p = path.join(root, ...rel.split('/'));
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, text);
  }
  return root;
}

export const LAYERING_POLICY = `---
schema: deckhand/LayeringPolicy/v1
metadata:
  schema: metadata/Control/v1
  name: layering-policy
data:
  layerOrder:
    - global
    - type
    - site
`;

export function siteDefinition(name: string, type: string): string {
  return `---
schema: pegleg/SiteDefinition/v1
metadata:
  schema: metadata/Document/v1
  name: ${name}
  layeringDefinition:
    abstract: false
    layer: site
  storagePolicy: cleartext
data:
  site_type: ${type}
`;
}

/** A Deckhand document; `extra` is metadata YAML indented by two spaces. */
export function doc(schema: string, name: string, layer: string, data: string, extra = ''): string {
  return `---
schema: ${schema}
metadata:
  schema: metadata/Document/v1
  name: ${name}
  layeringDefinition:
    abstract: false
    layer: ${layer}
  storagePolicy: cleartext
${extra}data:
${data}`;
}
