import { useState } from 'react';
import type { ChatAttachment } from '../../../shared/domain/chat';
import type { SkillCatalog, SkillInfo } from '../../../shared/domain/skills';
import { useBerth } from '../../store';
import { IconButton } from '../../ui/controls';
import { CloseIcon } from '../../ui/icons';
import { STATE_LABELS, useSkillCatalog } from './use-skill-catalog';
import { useT, type Translate } from '../../i18n/use-t';
import { failureText } from '../../i18n/host-message';
import type { Failure } from '../../../shared/result';

/**
 * The composer's skill menu: every ready server's skills, by the name that
 * says whose they are. Picking one loads it (asking first if this version was
 * never approved) and attaches it to the message, tagged with its server.
 */
export function SkillPicker({
  conversationId,
  skillServers,
  onAttach,
  onClose,
}: {
  conversationId: string;
  /** The ready servers that declare the skills extension (the composer shows the menu only when there is one). */
  skillServers: readonly string[];
  onAttach: (attachment: ChatAttachment) => void;
  onClose: () => void;
}) {
  const transport = useBerth((s) => s.appsTransport);
  const { catalog, error } = useSkillCatalog();
  const t = useT();
  const [loading, setLoading] = useState<string>();
  // The host's refusal, worded as it renders (a language switch re-words it).
  const [problem, setProblem] = useState<Failure>();
  const skills = catalog?.skills.filter((skill) => skill.state !== 'refused') ?? [];

  const pick = async (skill: SkillInfo) => {
    setLoading(skill.qualifiedName);
    setProblem(undefined);
    const result = await transport.call('skills.attach', { server: skill.server, uri: skill.uri, conversationId });
    setLoading(undefined);
    if (!result.ok) {
      setProblem(result);
      return;
    }
    onAttach(result.value);
    onClose();
  };

  return (
    <div className="slash-panel skill-panel" role="group" aria-label={t('skills.picker.label')}>
      <div className="slash-head">
        <span className="slash-title">{t('skills.picker.title')}</span>
        <IconButton size="sm" variant="ghost" label={t('skills.picker.close')} icon={<CloseIcon />} onClick={onClose} />
      </div>
      {error !== undefined ? <p className="field-error">{error}</p> : null}
      {catalog !== undefined && skills.length === 0 ? (
        <p className="slash-empty" role="status">
          {emptyReason(t, skillServers, catalog)}
        </p>
      ) : (
        <ul className="slash-list" aria-label={t('skills.picker.list')}>
          {skills.map((skill) => (
            <li key={`${skill.server}\u0000${skill.uri}`}>
              <button
                type="button"
                className="slash-option"
                disabled={loading !== undefined}
                onClick={() => void pick(skill)}
                aria-label={t('skills.picker.attach', { name: skill.qualifiedName })}
              >
                <span className="slash-option-main">
                  <span className="slash-option-name">{skill.qualifiedName}</span>
                  <span className="slash-option-server">
                    {loading === skill.qualifiedName ? t('skills.picker.loading') : t(STATE_LABELS[skill.state].chip)}
                  </span>
                </span>
                <span className="slash-option-description">{skill.description}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      {problem !== undefined ? (
        <p className="field-error" role="alert">
          {failureText(problem)}
        </p>
      ) : null}
    </div>
  );
}

/** Which servers could offer skills and why none is listed: every server's own reason, when it gave one. */
export function emptyReason(t: Translate, skillServers: readonly string[], catalog: SkillCatalog): string {
  const refused = new Set(catalog.skills.map((skill) => skill.server));
  const reasons = skillServers.map((server) => {
    const problem = catalog.problems.find((entry) => entry.server === server)?.problem;
    if (problem !== undefined) return t('skills.picker.reason.failed', { server, problem });
    return refused.has(server)
      ? t('skills.picker.reason.refused', { server })
      : t('skills.picker.reason.none', { server });
  });
  // A list of the servers' reasons, each a sentence of its own words, joined by the language's separator.
  return t('skills.picker.empty', { reasons: reasons.join(t('skills.picker.reason.separator')) });
}
