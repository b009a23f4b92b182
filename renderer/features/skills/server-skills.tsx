import type { ServerState } from '../../../shared/domain';
import type { SkillInfo } from '../../../shared/domain/skills';
import { Chip, EmptyState, InlineAlert } from '../../ui/controls';
import { BookIcon } from '../../ui/icons';
import { STATE_LABELS, useSkillCatalog } from './use-skill-catalog';
import { formatBytes } from '../../i18n/format';
import { useT } from '../../i18n/use-t';
import { List, Row } from '../../ui/list';

/**
 * The server's skills (SEP-2640): each one's name as the model and the
 * composer use it (qualified by this server), description, files and the
 * state of your approval. Nothing is fetched here: files are read only when a
 * skill is loaded.
 */
export function ServerSkills({ server }: { server: ServerState }) {
  const { catalog, error } = useSkillCatalog();
  const t = useT();
  if (server.status !== 'ready') {
    return (
      <EmptyState icon={<BookIcon />} title={t('skills.server.notYet')}>
        {t('skills.server.waitReady')}
      </EmptyState>
    );
  }
  if (error !== undefined) return <InlineAlert>{t('skills.server.listFailed', { error })}</InlineAlert>;
  if (catalog === undefined) return <p className="muted">{t('skills.server.loading')}</p>;
  const problem = catalog.problems.find((p) => p.server === server.name);
  const skills = catalog.skills.filter((skill) => skill.server === server.name);
  if (skills.length === 0) {
    return (
      <>
        {problem ? <InlineAlert>{problem.problem}</InlineAlert> : null}
        <EmptyState icon={<BookIcon />} title={t('skills.server.none')}>
          {t('skills.server.noneHint')}
        </EmptyState>
      </>
    );
  }
  return (
    <div className="server-skills">
      {problem ? <InlineAlert>{problem.problem}</InlineAlert> : null}
      <p className="field-hint">{t('skills.server.intro')}</p>
      <List look="cards" aria-label={t('skills.server.list')}>
        {skills.map((skill) => (
          <SkillRow key={skill.uri} skill={skill} />
        ))}
      </List>
    </div>
  );
}

function SkillRow({ skill }: { skill: SkillInfo }) {
  const label = STATE_LABELS[skill.state];
  const t = useT();
  return (
    <Row aria-label={skill.qualifiedName} data-state={skill.state}>
      <div className="skill-row-head">
        <BookIcon />
        <span className="skill-name">{skill.qualifiedName}</span>
        <Chip tone={label.tone} title={label.hint ? t(label.hint) : skill.problem}>
          {t(label.chip)}
        </Chip>
      </div>
      {skill.description ? <p className="skill-description">{skill.description}</p> : null}
      {skill.problem ? <p className="field-error">{skill.problem}</p> : null}
      {skill.sameNameOn.length > 0 ? (
        <p className="skill-note" role="note">
          {t('skills.server.sameName', {
            servers: skill.sameNameOn.join(', '),
            count: skill.sameNameOn.length,
            name: skill.name,
            qualifiedName: skill.qualifiedName,
          })}
        </p>
      ) : null}
      {skill.files.length > 0 ? (
        <details className="skill-files">
          <summary>
            {t('skills.server.files', { count: skill.files.length, size: formatBytes(skill.totalBytes) })}
          </summary>
          <ul>
            {skill.files.map((file) => (
              <li key={file.uri}>
                <code>{file.path}</code> <span className="muted">{formatBytes(file.size)}</span>
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </Row>
  );
}
