import { HostError } from '../../shared/result';
import { rootError } from '../../shared/domain/root-errors';

const NAME_MAX = 200;

/** A root's name as given, trimmed; INVALID_INPUT (at `name`) when empty, too long or holding control characters. */
export function checkName(name: string): string {
  const trimmed = name.trim();
  if (trimmed === '') throw HostError.coded('INVALID_INPUT', rootError('root-errors.name-missing', {}), 'name');
  if (trimmed.length > NAME_MAX)
    throw HostError.coded('INVALID_INPUT', rootError('root-errors.name-too-long', { max: NAME_MAX }), 'name');
  if ([...trimmed].some((ch) => ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f))
    throw HostError.coded('INVALID_INPUT', rootError('root-errors.name-control', {}), 'name');
  return trimmed;
}

/** The folder's own name: `project` for `/home/me/project`, `C:` for `C:\`, `/` for `/`. */
export function defaultName(path: string): string {
  const parts = path.split(/[\\/]/).filter((s) => s !== '');
  return parts.at(-1) ?? path;
}
