import type { ServerState } from '../../../shared/domain';
import type { SkillInfo } from '../../../shared/domain/skills';
import { Chip, EmptyState, InlineAlert } from '../../ui/controls';
import { BookIcon } from '../../ui/icons';
import { formatBytes, STATE_LABELS, useSkillCatalog } from './use-skill-catalog';
import { List, Row } from '../../ui/list';

/**
 * The server's skills (SEP-2640): each one's name as the model and the
 * composer use it (qualified by this server), description, files and the
 * state of your approval. Nothing is fetched here: files are read only when a
 * skill is loaded.
 */
export function ServerSkills({ server }: { server: ServerState }) {
  const { catalog, error } = useSkillCatalog();
  if (server.status !== 'ready') {
    return (
      <EmptyState icon={<BookIcon />} title="No skills yet">
        Skills are listed once the server is ready.
      </EmptyState>
    );
  }
  if (error !== undefined) return <InlineAlert>Could not list the skills: {error}</InlineAlert>;
  if (catalog === undefined) return <p className="muted">Loading the skills…</p>;
  const problem = catalog.problems.find((p) => p.server === server.name);
  const skills = catalog.skills.filter((skill) => skill.server === server.name);
  if (skills.length === 0) {
    return (
      <>
        {problem ? <InlineAlert>{problem.problem}</InlineAlert> : null}
        <EmptyState icon={<BookIcon />} title="This server offers no skills">
          A server can ship know-how for its tools as skills (the MCP skills extension); this one lists none.
        </EmptyState>
      </>
    );
  }
  return (
    <div className="server-skills">
      {problem ? <InlineAlert>{problem.problem}</InlineAlert> : null}
      <p className="field-hint">
        Skills are this server’s instructions for the model. The model (or you, from the message box) loads one when
        needed; the first load asks you, and so does any change to its files. Every file is checked against the server’s
        manifest before the model sees it.
      </p>
      <List look="cards" aria-label="Skills">
        {skills.map((skill) => (
          <SkillRow key={skill.uri} skill={skill} />
        ))}
      </List>
    </div>
  );
}

function SkillRow({ skill }: { skill: SkillInfo }) {
  const label = STATE_LABELS[skill.state];
  return (
    <Row aria-label={skill.qualifiedName} data-state={skill.state}>
      <div className="skill-row-head">
        <BookIcon />
        <span className="skill-name">{skill.qualifiedName}</span>
        <Chip tone={label.tone} title={label.hint || skill.problem}>
          {label.chip}
        </Chip>
      </div>
      {skill.description ? <p className="skill-description">{skill.description}</p> : null}
      {skill.problem ? <p className="field-error">{skill.problem}</p> : null}
      {skill.sameNameOn.length > 0 ? (
        <p className="skill-note" role="note">
          {skill.sameNameOn.join(', ')} also {skill.sameNameOn.length === 1 ? 'offers' : 'offer'} a skill named “
          {skill.name}”. Berth never lets one stand in for the other: this one is always called {skill.qualifiedName}.
        </p>
      ) : null}
      {skill.files.length > 0 ? (
        <details className="skill-files">
          <summary>
            {skill.files.length} {skill.files.length === 1 ? 'file' : 'files'}, {formatBytes(skill.totalBytes)}
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
