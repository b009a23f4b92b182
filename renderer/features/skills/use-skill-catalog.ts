import type { SkillCatalog } from '../../../shared/domain/skills';
import { useLiveHostList } from '../../store/use-live-host-list';

/** Every ready server's skills, kept current from `skills.changed`; an error when the first read failed. */
export function useSkillCatalog(): { catalog: SkillCatalog | undefined; error: string | undefined } {
  const { value, error } = useLiveHostList(
    {
      method: 'skills.list',
      input: {},
      topic: 'skills.changed',
      fromAnswer: (catalog) => catalog,
      fromEvent: (catalog) => ({ value: catalog }),
    },
    [],
  );
  return { catalog: value, error };
}

export const formatBytes = (bytes: number): string =>
  bytes < 1024
    ? `${bytes} B`
    : bytes < 1024 * 1024
      ? `${(bytes / 1024).toFixed(1)} KB`
      : `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** What each state means for the person, in a few words. */
export const STATE_LABELS = {
  available: { chip: 'Not yet approved', tone: 'neutral', hint: 'Asks you the first time it is loaded.' },
  approved: { chip: 'Approved', tone: 'success', hint: 'You allowed this exact version; it loads without asking.' },
  changed: {
    chip: 'Changed since approved',
    tone: 'warning',
    hint: 'The server changed it after you allowed it: loading it asks again.',
  },
  refused: { chip: 'Refused by Berth', tone: 'danger', hint: '' },
} as const;
