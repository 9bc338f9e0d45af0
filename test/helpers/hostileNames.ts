/**
 * A real input whose names are hostile (issue #33): the Istio gateway of the quick start (gateway
 * chart 1.30.3 behind an AWS NLB) and a meshed app Deployment, with the gateway's name and
 * namespace, the app's name, namespace and container name set, through YAML double-quoted escapes
 * (valid YAML, as Go's reader takes it), to terminal sequences, Markdown and HTML. Kubernetes
 * would reject these names; kube-graceful runs on pull requests before Kubernetes sees them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { ROOT } from './fixtures.ts';

/** The payloads, as YAML double-quoted text; each is in every hostile name. */
const PAYLOADS = [
  '\\e]0;pwned-title\\a', // OSC 0: the window title
  '\\e[2J\\e[H', // clear the screen, cursor home
  '\\e]52;c;cHduZWQ=\\a', // OSC 52: write the clipboard
  '\\e]8;;https://evil.example/\\e\\\\click-me\\e]8;;\\e\\\\', // OSC 8: a hidden link
  '\\x9b31m', // the 8-bit CSI
  '\\0\\x7f\\x85', // NUL, DEL, NEL
  '\\rkube-graceful check: ok (forged by CR)', // back to the start of the line
  '\\nkube-graceful check: ok (forged by LF)', // a line of its own
  '\\u202eevil\\u202c\\u2028', // a bidi override, a line separator
  '<script>document.documentElement.dataset.pwned=1</script>',
  '<img src=x onerror=\\"document.documentElement.dataset.pwned=1\\">',
  '![x](https://evil.example/x.png)',
  '[link](https://evil.example)',
  '@org/team #1 www.evil.example',
  '`tick` | pipe *em* ~~del~~ &#64;entity',
].join('');

/** Returns the YAML double-quoted scalar of a hostile name that starts with `tag`. */
function quoted(tag: string): string {
  return `"${tag}${PAYLOADS}"`;
}

/** The hostile names as the input spells them (YAML) and as a reader gets them (the value). */
export const HOSTILE = Object.fromEntries(
  (['gatewayName', 'gatewayNamespace', 'appName', 'appNamespace', 'container'] as const).map(
    (key) => [key, { yaml: quoted(key), value: parse(quoted(key)) as string }],
  ),
) as Record<
  'gatewayName' | 'gatewayNamespace' | 'appName' | 'appNamespace' | 'container',
  { readonly yaml: string; readonly value: string }
>;

/** Words that are in every hostile name: each output shows them, escaped or not. */
export const RECOGNISABLE = ['pwned-title', 'click-me', 'forged by CR', 'evil.example'];

const APP = `---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${HOSTILE.appName.yaml}
  namespace: ${HOSTILE.appNamespace.yaml}
spec:
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
        sidecar.istio.io/inject: "true"
    spec:
      containers:
      - name: ${HOSTILE.container.yaml}
        image: nginx:1.27
        ports:
        - containerPort: 8080
`;

/** The hostile input as a manifest stream. */
export function hostileStream(): string {
  const gateway = readFileSync(join(ROOT, 'examples/quickstart/istio-gateway-nlb.yaml'), 'utf8')
    .replaceAll('namespace: istio-system', `namespace: ${HOSTILE.gatewayNamespace.yaml}`)
    .replace(
      /(kind: Deployment\nmetadata:\n {2}name: )istio-public-ingressgateway/,
      `$1${HOSTILE.gatewayName.yaml}`,
    );
  if (!gateway.includes(HOSTILE.gatewayName.yaml)) throw new Error('the gateway was not renamed');
  return `${gateway.trimEnd()}\n${APP}`;
}

/** The hostile input as a KRM ResourceList: each document an item. */
export function hostileResourceList(): string {
  const items = hostileStream()
    .split(/^---\n/m)
    .map((doc) => doc.replace(/^#.*\n/gm, '').trimEnd())
    .filter((doc) => doc.length > 0)
    .map((doc) => `- ${doc.split('\n').join('\n  ')}`);
  return `apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n${items.join('\n')}\n`;
}

/** The flags that make every mutator change the hostile input (the app's classic sidecar). */
export const HOSTILE_FLAGS = ['--sidecar-mode', 'classic'];

/** A file name from the input too: the CLI shows it as the place of each workload. */
export const HOSTILE_FILE_NAME = 'manifests\u001b]0;file-title\u0007<img src=x>`.yaml';
