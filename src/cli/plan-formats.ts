/**
 * The plan for people: text, Mermaid and Graphviz DOT. Groups are drawn as clusters and the step
 * order as edges between consecutive steps (through one junction per step, so that a parallel
 * step of 40 charts does not become 1,600 edges); explicit addDependency edges are dashed.
 */
import { Plan } from '../model/plan';
import { plural } from './report';

export function text(plan: Plan): string {
  const lines = [`manifest ${plan.manifest} (release prefix ${plan.releasePrefix}): ${plural(plan.steps.length, 'step')}, ${plural(plan.releases.length, 'release')}`];
  for (const s of plan.steps) {
    lines.push(`step ${s.index}: group ${s.group}${s.sequenced ? ' (sequenced)' : s.releases.length > 1 ? ` (${s.releases.length} at once)` : ''}`);
    const w = Math.max(...s.releases.map((r) => r.name.length));
    for (const r of s.releases) {
      const extra = [
        `wait ${r.waitTimeout}s`,
        r.waitResources.length === 0 ? 'no resource wait' : r.waitResources.map((x) => `${x.type}${x.required ? '' : '?'}`).join(','),
        r.nativeWait ? 'helm --wait' : '',
        r.test.enabled ? `test ${r.test.timeoutSeconds}s` : '',
        r.dependsOn.length ? `after ${r.dependsOn.join(',')}` : '',
        r.firstStep !== s.index ? `again (first in step ${r.firstStep})` : '',
      ].filter(Boolean);
      lines.push(`  ${r.name.padEnd(w)}  ns ${r.namespace}  chart ${r.chart}  ${extra.join('  ')}`);
    }
  }
  return lines.join('\n') + '\n';
}

const id = (s: string) => s.replace(/[^A-Za-z0-9_]/g, '_');

export function mermaid(plan: Plan): string {
  const out = ['flowchart TD'];
  let currentGroup: string | undefined;
  const node = (step: number, release: string) => `s${step}_${id(release)}`;
  plan.steps.forEach((s, i) => {
    // One subgraph per run of steps of the same group (a sequenced group spans several steps).
    if (s.group !== currentGroup) {
      if (currentGroup !== undefined) out.push('  end');
      out.push(`  subgraph g${i}_${id(s.group)}["${s.group}${s.sequenced ? ' (sequenced)' : ''}"]`);
      currentGroup = s.group;
    }
    for (const r of s.releases) out.push(`    ${node(s.index, r.name)}["${r.name}<br/>${r.namespace} · ${r.waitTimeout}s"]`);
    if (s.releases.length > 1) out.push(`    j${s.index}(( )):::junction`);
  });
  if (currentGroup !== undefined) out.push('  end');
  const exits = (i: number) => (plan.steps[i].releases.length > 1 ? [`j${i}`] : plan.steps[i].releases.map((r) => node(i, r.name)));
  plan.steps.forEach((s, i) => {
    if (s.releases.length > 1) for (const r of s.releases) out.push(`  ${node(i, r.name)} --> j${i}`);
    if (i + 1 < plan.steps.length) for (const from of exits(i)) for (const r of plan.steps[i + 1].releases) out.push(`  ${from} --> ${node(i + 1, r.name)}`);
    for (const r of s.releases) {
      for (const dep of r.dependsOn) {
        const step = plan.firstStepOf(dep);
        const target = step === undefined ? undefined : plan.steps[step].releases.find((x) => x.chart === dep);
        if (target) out.push(`  ${node(step!, target.name)} -.-> ${node(i, r.name)}`);
      }
    }
  });
  out.push('  classDef junction fill:#999,stroke:#999');
  return out.join('\n') + '\n';
}

export function dot(plan: Plan): string {
  const q = (s: string) => JSON.stringify(s);
  const out = ['digraph plan {', '  rankdir=TB; compound=true; node [shape=box, fontname="Helvetica"];', `  label=${q(`${plan.manifest} (prefix ${plan.releasePrefix})`)}; labelloc=t;`];
  const node = (step: number, release: string) => q(`${step}:${release}`);
  let open: string | undefined;
  plan.steps.forEach((s, i) => {
    if (s.group !== open) {
      if (open !== undefined) out.push('  }');
      out.push(`  subgraph cluster_${i} { label=${q(`${s.group}${s.sequenced ? ' (sequenced)' : ''}`)}; style=rounded;`);
      open = s.group;
    }
    for (const r of s.releases) out.push(`    ${node(i, r.name)} [label=${q(`${r.name}\n${r.namespace} · ${r.waitTimeout}s`)}];`);
    if (s.releases.length > 1) out.push(`    ${q(`step ${i}`)} [shape=point, width=0.1];`);
  });
  if (open !== undefined) out.push('  }');
  const exits = (i: number) => (plan.steps[i].releases.length > 1 ? [q(`step ${i}`)] : plan.steps[i].releases.map((r) => node(i, r.name)));
  plan.steps.forEach((s, i) => {
    if (s.releases.length > 1) for (const r of s.releases) out.push(`  ${node(i, r.name)} -> ${q(`step ${i}`)} [arrowhead=none];`);
    if (i + 1 < plan.steps.length) for (const from of exits(i)) for (const r of plan.steps[i + 1].releases) out.push(`  ${from} -> ${node(i + 1, r.name)};`);
    for (const r of s.releases) {
      for (const dep of r.dependsOn) {
        const step = plan.firstStepOf(dep);
        const target = step === undefined ? undefined : plan.steps[step].releases.find((x) => x.chart === dep);
        if (target) out.push(`  ${node(step!, target.name)} -> ${node(i, r.name)} [style=dashed];`);
      }
    }
  });
  out.push('}');
  return out.join('\n') + '\n';
}
