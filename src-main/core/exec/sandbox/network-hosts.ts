import { isIP } from 'node:net';

// Which hosts sandboxed code may reach through the app's proxy without anybody being asked: the
// package registries, so that `pip install`, `npm install`, `install.packages()` and `gem install`
// keep working in the sandbox, plus what the person allowed for good (settings.sandbox.allowedHosts).
// Every other host is asked once per conversation (network-questions in agent/).

/** The registries and their download hosts: PyPI, npm, CRAN, RubyGems, conda, Debian and Ubuntu mirrors. */
export const REGISTRY_HOSTS: readonly string[] = [
  'pypi.org',
  'files.pythonhosted.org',
  'registry.npmjs.org',
  'registry.yarnpkg.com',
  'cran.r-project.org',
  'cloud.r-project.org',
  '*.r-project.org',
  'rubygems.org',
  'index.rubygems.org',
  'conda.anaconda.org',
  'repo.anaconda.com',
  'deb.debian.org',
  'security.debian.org',
  'archive.ubuntu.com',
  'security.ubuntu.com',
];

/** A host in a list: `example.com` exactly, or `*.example.com` for any name under it. Case-insensitive. */
export function hostListed(host: string, list: readonly string[]): boolean {
  const name = normalHost(host);
  return list.some((entry) => {
    const pattern = normalHost(entry);
    if (pattern.startsWith('*.')) return name.endsWith(pattern.slice(1)) && name.length > pattern.length - 1;
    return name === pattern;
  });
}

/** Lower case, no trailing dot, IPv6 without brackets. */
export function normalHost(host: string): string {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  return bare.toLowerCase().replace(/\.$/, '');
}

/**
 * Addresses on this machine or its link: the app's own servers, databases bound to localhost, cloud
 * metadata services (169.254.169.254). Sandboxed code reaches them only when the person listed the
 * exact host in settings; an allowed name that resolves to one of them is refused (DNS rebinding).
 */
export function isLocalAddress(address: string): boolean {
  const kind = isIP(address);
  if (kind === 4) {
    const [a, b] = address.split('.').map(Number);
    return a === 127 || a === 0 || (a === 169 && b === 254);
  }
  if (kind === 6) {
    const lower = address.toLowerCase();
    if (lower.startsWith('::ffff:')) return isLocalAddress(lower.slice(7));
    return (
      lower === '::1' ||
      lower === '::' ||
      lower.startsWith('fe8') ||
      lower.startsWith('fe9') ||
      lower.startsWith('fea') ||
      lower.startsWith('feb')
    );
  }
  return false;
}
