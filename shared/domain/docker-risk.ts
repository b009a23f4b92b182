/**
 * `docker run` options that take a container's walls down: the host's files
 * (`-v /:/host`), its devices, network, processes or kernel abilities, or a
 * different program than the image's (`--entrypoint`), or root. A registry
 * entry or an imported config can put them in the runtime arguments; every
 * review flags them, each spelling (`--flag value`, `--flag=value`, `-vX`).
 */
export interface DockerRisk {
  /** The option as written, with its value: `--network host`, `-v /:/host`. */
  option: string;
  reason: string;
}

// Options that take no value; every other long option does (docker's own parser says so per flag).
const BOOLEAN_LONG = new Set([
  '--rm',
  '--init',
  '--privileged',
  '--read-only',
  '--interactive',
  '--tty',
  '--detach',
  '--publish-all',
  '--oom-kill-disable',
  '--no-healthcheck',
  '--quiet',
  '--disable-content-trust',
  '--sig-proxy',
  '--help',
  '--use-api-socket',
]);
const BOOLEAN_SHORT = new Set(['i', 't', 'd', 'P', 'q']);
const SHORT_NAMES: Readonly<Record<string, string>> = {
  v: '--volume',
  u: '--user',
  e: '--env',
  p: '--publish',
  w: '--workdir',
  l: '--label',
  m: '--memory',
  c: '--cpu-shares',
  h: '--hostname',
  a: '--attach',
};
const HOST_NAMESPACES = ['--network', '--net', '--pid', '--ipc', '--uts', '--userns', '--cgroupns'];

function isHostPath(source: string): boolean {
  return /^([/~.]|[A-Za-z]:[\\/]|\\\\)/.test(source) || source.includes('/');
}

/** Why one option (long name, value) opens the container, or undefined. */
function optionRisk(name: string, value: string | undefined): string | undefined {
  const v = value ?? '';
  switch (name) {
    case '--privileged':
      return 'gives the container every device and kernel ability of the host: it can take the host over';
    case '--volume': {
      const source = v.split(':')[0] ?? '';
      // `-v /data` alone is an anonymous volume; `-v name:/data` a named one: neither is a host folder.
      return v.includes(':') && isHostPath(source)
        ? `gives the container the host's ${source} (read and write unless it says :ro)`
        : undefined;
    }
    case '--mount': {
      const fields = v.split(',').map((field) => field.trim().toLowerCase());
      const source =
        v
          .split(',')
          .find((field) => /^(source|src)=/i.test(field.trim()))
          ?.split('=')[1] ?? '';
      if (
        fields.includes('type=bind') ||
        fields.some((field) => field.startsWith('volume-opt=device')) ||
        isHostPath(source)
      )
        return `gives the container the host's ${source === '' ? 'files' : source}`;
      return undefined;
    }
    case '--volumes-from':
      return "gives the container another container's volumes";
    case '--cap-add':
      return `gives the container the kernel ability ${v}`;
    case '--device':
      return `gives the container the host's device ${v}`;
    case '--device-cgroup-rule':
      return "lets the container use the host's devices";
    case '--security-opt':
      return `changes the container's confinement (${v})`;
    case '--entrypoint':
      return `runs ${v === '' ? 'another program' : v} instead of the image's own program`;
    case '--user':
      return /^(0|root)(:.*)?$/.test(v) ? 'runs the server as root inside the container' : undefined;
    default:
      if (HOST_NAMESPACES.includes(name) && (v === 'host' || v.startsWith('container:'))) {
        return `shares the host's ${name === '--net' ? 'network' : name.slice(2)} with the container${name === '--network' || name === '--net' ? ': it reaches every service on this computer' : ''}`;
      }
      return undefined;
  }
}

function commandName(command: string): string {
  return (command.split(/[\\/]/).pop() ?? '').replace(/\.exe$/i, '').toLowerCase();
}

/**
 * The risky options of a `docker run` (or `podman run`, `docker container
 * run`, `create`) command line, up to the image: what follows the image is
 * the container's own command. Empty for any other command.
 */
export function dockerRisks(command: string | undefined, args: readonly string[]): DockerRisk[] {
  if (command === undefined || !['docker', 'podman'].includes(commandName(command))) return [];
  let at = args[0] === 'container' ? 1 : 0;
  if (args[at] !== 'run' && args[at] !== 'create') return [];
  at += 1;
  const risks: DockerRisk[] = [];
  const add = (name: string, value: string | undefined, written: string) => {
    const reason = optionRisk(name, value);
    if (reason !== undefined && !risks.some((risk) => risk.option === written)) risks.push({ option: written, reason });
  };
  while (at < args.length) {
    const arg = args[at] as string;
    if (arg === '--' || !arg.startsWith('-') || arg === '-') break; // the image
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      const name = eq === -1 ? arg : arg.slice(0, eq);
      if (eq !== -1) add(name, arg.slice(eq + 1), arg);
      else if (BOOLEAN_LONG.has(name)) add(name, undefined, arg);
      else {
        add(name, args[at + 1], `${arg} ${args[at + 1] ?? ''}`.trim());
        at += 1;
      }
      at += 1;
      continue;
    }
    // Short options, possibly combined (`-it`), the last one possibly with its value attached (`-v/x:/y`).
    for (let i = 1; i < arg.length; i += 1) {
      const letter = arg[i] as string;
      if (BOOLEAN_SHORT.has(letter)) continue;
      const name = SHORT_NAMES[letter] ?? `-${letter}`;
      const attached = arg.slice(i + 1).replace(/^=/, '');
      if (attached !== '') add(name, attached, arg);
      else {
        add(name, args[at + 1], `${arg} ${args[at + 1] ?? ''}`.trim());
        at += 1;
      }
      break;
    }
    at += 1;
  }
  return risks;
}
