import type { Handlers } from '../../shared/contract';
import type { skillsMethods } from '../../shared/contract/skills';
import type { SkillsService } from '../skills/skills-service';

/** The skills methods of the contract. */
export type SkillsHandlers = Pick<Handlers, keyof typeof skillsMethods>;

/** Skills of ready servers (the server's detail, the composer's skill menu) and the person's pick. */
export function createSkillsHandlers(skills: Pick<SkillsService, 'catalog' | 'attach'>): SkillsHandlers {
  return {
    'skills.list': async () => skills.catalog(),
    'skills.attach': async ({ server, uri, conversationId }) => skills.attach(server, uri, conversationId),
  };
}
