/**
 * docs/compatibility.md, made from the table (./table.ts): the page is generated so that it
 * cannot drift from what the checks enforce (test/compat/doc.test.ts fails when it is stale).
 */
import { CONSTRAINTS } from './table.ts';
import type { Constraint } from './table.ts';

const HEADER = `# Compatibility

<!-- Generated from fn/compat/table.ts by \`npm run docs:compat\`; do not edit by hand. -->

Every upstream constraint kube-graceful relies on, with the versions it holds for, what breaks
outside them, and the upstream file@tag it was read from. Rows with a check are tested on the
output: \`test/compat/matrix.test.ts\` runs the corpus gateways, apps and Jobs across Istio
1.12–1.30, Kubernetes 1.27–1.35 and Linkerd 2.14–2.20 in every mode, and every setting written
must pass every check; the explain timeline of each case must agree with the settings.

## What the versions mean

- \`kube-version\` (\`spec.kubernetesVersion\`, default 1.31) is the version of the **oldest
  kubelet** in the cluster, not the API server's: nodes may lag the control plane by up to three
  minors, and a pod feature works only where the kubelet that runs the pod has it on. Every pod
  feature (native sidecars, the preStop \`sleep\` action, \`sleep: 0\`) is used only where that
  kubelet has it on by default. \`1.31\` and \`1.31.4\` name the same minor.
- \`istio-version\` (default 1.26, or the version in the gateway chart's \`helm.sh/chart\` \
label) and
  \`linkerd-version\` (default 2.18) are the control plane's: its injector decides what the pod
  gets.

## Constraints
`;

/** Returns the page's text. */
export function compatibilityMarkdown(constraints: readonly Constraint[] = CONSTRAINTS): string {
  const products = [
    'Kubernetes',
    'Istio',
    'Linkerd',
    'Traefik',
    'Envoy Gateway',
    'Helm',
    'ingress-nginx',
  ] as const;
  const sections = products.map((product) => {
    const rows = constraints.filter((c) => c.product === product).map(row);
    return [
      `\n### ${product}\n`,
      '| id | setting | versions | outside them | source | checked |',
      '|---|---|---|---|---|---|',
      ...rows,
    ].join('\n');
  });
  return `${HEADER}${sections.join('\n')}\n`;
}

function row(c: Constraint): string {
  const checked = c.check ? 'on output' : (c.enforcedBy ?? 'no');
  return (
    `| \`${c.id}\` | ${cell(c.setting)} | ${cell(c.versions)} | ${cell(c.breaks)} | ` +
    `${cell(c.sources.join('; '))} | ${cell(checked)} |`
  );
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}
