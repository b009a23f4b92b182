import { skillPath } from './skill-entry';

/** One offered skill, as naming sees it. */
export interface NamedSkill {
  server: string;
  uri: string;
  name: string;
}

/**
 * The name the model and the person use for a skill: always qualified by
 * the server's label in Berth (`docs/pdf-processing`), so a skill of one
 * server can never stand in for a same-named skill of another; two skills of
 * one server that share a name are told apart by their path
 * (`docs/acme/billing/refunds`). The spec forbids keying skills on name alone.
 */
export function qualifiedNames(skills: readonly NamedSkill[]): Map<NamedSkill, string> {
  const perServer = new Map<string, number>();
  for (const skill of skills) {
    const key = `${skill.server}\u0000${skill.name}`;
    perServer.set(key, (perServer.get(key) ?? 0) + 1);
  }
  const names = new Map<NamedSkill, string>();
  for (const skill of skills) {
    const clash = (perServer.get(`${skill.server}\u0000${skill.name}`) ?? 0) > 1;
    names.set(skill, `${skill.server}/${clash ? skillPath(skill.uri) : skill.name}`);
  }
  return names;
}

/** For each skill whose bare name other servers also offer: those servers (shown beside it, so a look-alike is noticed). */
export function nameCollisions(skills: readonly NamedSkill[]): Map<NamedSkill, string[]> {
  const serversByName = new Map<string, Set<string>>();
  for (const skill of skills) {
    const servers = serversByName.get(skill.name) ?? new Set<string>();
    servers.add(skill.server);
    serversByName.set(skill.name, servers);
  }
  const collisions = new Map<NamedSkill, string[]>();
  for (const skill of skills) {
    const others = [...(serversByName.get(skill.name) ?? [])].filter((server) => server !== skill.server).sort();
    if (others.length > 0) collisions.set(skill, others);
  }
  return collisions;
}
