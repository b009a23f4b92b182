import type { SkillCatalog, SkillState } from '../../../shared/domain/skills';
import { useLiveHostList } from '../../store/use-live-host-list';
import type { MessageId } from '../../i18n/message-ids';

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

/** What each state means for the person, in a few words (catalog ids; `refused` has no hint: the skill's problem says why). */
export const STATE_LABELS: Record<
  SkillState,
  { chip: MessageId; tone: 'neutral' | 'success' | 'warning' | 'danger'; hint?: MessageId }
> = {
  available: { chip: 'skills.state.available', tone: 'neutral', hint: 'skills.state.availableHint' },
  approved: { chip: 'skills.state.approved', tone: 'success', hint: 'skills.state.approvedHint' },
  changed: { chip: 'skills.state.changed', tone: 'warning', hint: 'skills.state.changedHint' },
  refused: { chip: 'skills.state.refused', tone: 'danger' },
};
