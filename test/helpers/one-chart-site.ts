/**
 * The smallest deployable Armada site: one chart `c` (release `c` in namespace `ns`) in group `g`
 * of manifest `site` with release prefix `a`. Tests that add one document or one override to a
 * valid site start from it.
 */
export const ONE_CHART_SITE = `---
schema: armada/Chart/v1
metadata: {schema: metadata/Document/v1, name: c}
data:
  chart_name: c
  release: c
  namespace: ns
  wait: {labels: {a: b}}
  source: {type: local, location: /charts, subpath: c}
  dependencies: []
---
schema: armada/ChartGroup/v1
metadata: {schema: metadata/Document/v1, name: g}
data: {chart_group: [c]}
---
schema: armada/Manifest/v1
metadata: {schema: metadata/Document/v1, name: site}
data: {release_prefix: a, chart_groups: [g]}
`;
