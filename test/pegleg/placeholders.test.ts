import { parseYamlStream } from '../../src/importer/load';
import { placeholderWarnings } from '../../src/cli/placeholders';

const chart = (values: string) => `schema: armada/Chart/v1
metadata:
  schema: metadata/Document/v1
  name: c
data:
  chart_name: c
  release: c
  namespace: n
  source:
    type: local
    location: \${CHART_PATH}/c
    subpath: .
  values:
${values}`;

const fields = (values: string) => placeholderWarnings(parseYamlStream({ file: 'f.yaml', text: chart(values) }).documents).map((d) => `${d.field}: ${d.message.split(' is not')[0]}`);

describe('${VAR} warnings: only where envsubst was plausibly meant', () => {
  test('a one-line value with an upper-case name warns (the chart location and an image tag)', () => {
    expect(fields('    image: registry/x:${IMAGE_TAG}\n')).toEqual(['data.source.location: ${CHART_PATH}', 'data.values.image: ${IMAGE_TAG}']);
  });

  test('templates and scripts that their own program expands do not: multi-line text, script/template/command keys, record fields, command lines', () => {
    expect(
      fields(
        [
          '    conf:',
          '      fluentd:',
          '        template: |',
          '          <rule>',
          '            tag info.${tag}',
          '          </rule>',
          '      fluentbit:',
          '        template: "[FILTER]\\n    Record hostname ${HOSTNAME}\\n"',
          '    bootstrap:',
          '      script: openstack role add --user="${OS_USERNAME}"',
          '    command: ["/bin/sh", "-c", "exec ${BINARY}"]',
          '    record: kube.${tag}',
          '    line: echo ${DATE} && date',
          '',
        ].join('\n'),
      ),
    ).toEqual(['data.source.location: ${CHART_PATH}']);
  });
});
