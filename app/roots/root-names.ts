import { HostError } from '../../shared/result';

const NAME_MAX = 200;

/** A root's name as given, trimmed; INVALID_INPUT (at `name`) when empty, too long or holding control characters. */
export function checkName(name: string): string {
  const trimmed = name.trim();
  if (trimmed === '') throw new HostError('INVALID_INPUT', 'a root needs a name', 'name');
  if (trimmed.length > NAME_MAX)
    throw new HostError('INVALID_INPUT', `a root name can be at most ${NAME_MAX} characters`, 'name');
  if ([...trimmed].some((ch) => ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f))
    throw new HostError('INVALID_INPUT', 'a root name cannot contain control characters', 'name');
  return trimmed;
}

/** The folder's own name: `project` for `/home/me/project`, `C:` for `C:\`, `/` for `/`. */
export function defaultName(path: string): string {
  const parts = path.split(/[\\/]/).filter((s) => s !== '');
  return parts.at(-1) ?? path;
}
