/** One clickable step of a breadcrumb trail: what it shows and the folder it opens. */
export interface Crumb {
  label: string;
  path: string;
}

/**
 * The trail from the file-system root to `path`, for POSIX (`/a/b`) and
 * Windows (`C:\a\b`) paths alike; the host has already normalized it.
 */
export function folderCrumbs(path: string): Crumb[] {
  const windows = /^[A-Za-z]:[\\/]/.test(path) || path.startsWith('\\\\');
  const sep = windows ? '\\' : '/';
  const parts = path.split(/[\\/]/).filter((p) => p !== '');
  if (!windows) {
    const crumbs: Crumb[] = [{ label: '/', path: '/' }];
    parts.forEach((part, i) => crumbs.push({ label: part, path: `/${parts.slice(0, i + 1).join('/')}` }));
    return crumbs;
  }
  const unc = path.startsWith('\\\\');
  // A UNC share (\\server\share) is the root of its own trail, like a drive letter.
  const rootParts = unc ? parts.slice(0, 2) : parts.slice(0, 1);
  const rootPath = unc ? `\\\\${rootParts.join('\\')}` : `${rootParts[0] ?? ''}\\`;
  const crumbs: Crumb[] = [{ label: unc ? rootPath : (rootParts[0] ?? path), path: rootPath }];
  const rest = parts.slice(rootParts.length);
  rest.forEach((part, i) =>
    crumbs.push({ label: part, path: `${rootPath.replace(/\\$/, '')}${sep}${rest.slice(0, i + 1).join(sep)}` }),
  );
  return crumbs;
}

/** The last segment of a path: the default name of a root. */
export function folderName(path: string): string {
  const parts = path.split(/[\\/]/).filter((p) => p !== '');
  return parts[parts.length - 1] ?? path;
}
