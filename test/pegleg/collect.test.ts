import * as fs from 'fs';
import * as path from 'path';
import { isSiteFile, readsFilesIn, siteDirectories } from '../../src/pegleg/collect';
import { listSiteFiles, listSites } from '../../src/pegleg/site-files';
import { SITES, siteDefinition, siteRepo } from './helpers';

const typeOf = (_f: string, text: string) => {
  const m = /site_type: (\S+)/.exec(text);
  return m ? { siteType: m[1] } : { problem: 'no site_type' };
};

describe("Pegleg's site collection", () => {
  test('the rules: global/, type/<site_type>/, site/<name>/; *.yaml files not hidden; files of a hidden folder and anything under tools/ left out', () => {
    expect(siteDirectories('s1', 'foundry')).toEqual(['global', 'type/foundry', 'site/s1']);
    expect(['a.yaml', 'a.yml', '.zuul.yaml', 'a.yaml.bak', 'b.YAML'].map(isSiteFile)).toEqual([true, false, false, false, false]);
    expect(['global', 'global/.git', 'global/.git/objects', 'global/tools', 'global/tools/x', 'global/toolsx'].map(readsFilesIn)).toEqual([true, false, true, false, false, true]);
  });

  test('a repository walked in sorted order: each folder\'s files, then its subfolders; other sites and types left out', () => {
    const repo = siteRepo({
      'site/s1/site-definition.yaml': siteDefinition('s1', 'foundry'),
      'site/s1/b.yaml': '',
      'site/s1/a/z.yaml': '',
      'site/s2/site-definition.yaml': siteDefinition('s2', 'other'),
      'site/s2/x.yaml': '',
      'global/z.yaml': '',
      'global/b/a.yaml': '',
      'global/a.yaml': '',
      'global/a.yml': '',
      'global/.zuul.yaml': '',
      'global/.git/config.yaml': '',
      'global/.git/objects/kept.yaml': '',
      'global/tools/t.yaml': '',
      'global/tools/deeper/t.yaml': '',
      'type/foundry/t.yaml': '',
      'type/other/o.yaml': '',
    });
    const r = listSiteFiles(repo, 's1', typeOf);
    expect(r.diagnostics).toEqual([]);
    expect(r.siteType).toBe('foundry');
    expect(r.files.map((f) => path.relative(repo, f).split(path.sep).join('/'))).toEqual([
      'global/a.yaml',
      'global/z.yaml',
      // os.walk skips the files of a folder named .git, not those of its subfolders
      'global/.git/objects/kept.yaml',
      'global/b/a.yaml',
      'type/foundry/t.yaml',
      'site/s1/b.yaml',
      'site/s1/site-definition.yaml',
      'site/s1/a/z.yaml',
    ]);
    expect(listSites(repo)).toEqual(['s1', 's2']);
  });

  test('a missing site names the sites there; a missing repository and a bad site name are errors', () => {
    const repo = siteRepo({ 'site/s1/site-definition.yaml': siteDefinition('s1', 'foundry') });
    const missing = listSiteFiles(repo, 'nope', typeOf);
    expect(missing.files).toEqual([]);
    expect(missing.diagnostics.map((d) => [d.severity, d.message])).toEqual([['error', `site "nope" has no site definition (site/nope/site-definition.yaml in ${repo}); the repository has sites s1`]]);
    expect(listSiteFiles(path.join(repo, 'nowhere'), 's1', typeOf).diagnostics[0].message).toBe(`the site repository ${path.join(repo, 'nowhere')} does not exist`);
    expect(listSiteFiles(repo, '../s1', typeOf).diagnostics[0].message).toBe('"../s1" is not a site name: it names a folder of site/ (no "/", not "." or "..")');
  });

  test.each(fs.readdirSync(SITES).filter((s) => fs.existsSync(path.join(SITES, s, 'tree', 'site'))))('%s: the files collected are the files Pegleg read (order.txt), in sorted order', (site) => {
    const tree = path.join(SITES, site, 'tree');
    const name = fs.readdirSync(path.join(tree, 'site'))[0];
    const r = listSiteFiles(tree, name, typeOf);
    const order = fs.readFileSync(path.join(SITES, site, 'order.txt'), 'utf8').trim().split('\n');
    const got = r.files.map((f) => path.relative(tree, f).split(path.sep).join('/'));
    expect([...got].sort()).toEqual([...order].sort());
    expect(got.length).toBe(order.length);
  });
});
