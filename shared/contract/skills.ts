import { z } from 'zod';
import { ChatAttachmentSchema } from '../domain/chat';
import { SkillCatalogSchema } from '../domain/skills';
import { method } from './define';

export const skillsMethods = {
  'skills.list': method({
    summary: "Every ready server's skills (SEP-2640): name, description, files and the state of the person's approval.",
    input: z.object({}).strict(),
    output: SkillCatalogSchema,
  }),
  'skills.attach': method({
    summary:
      'The person picked a skill in the composer: ask for approval if this manifest was not approved, fetch SKILL.md, verify it, and return it as an attachment tagged with its server.',
    input: z
      .object({
        server: z.string().min(1).max(200),
        uri: z.string().min(1).max(2_048),
        conversationId: z.string().min(1).max(200).optional(),
      })
      .strict(),
    output: ChatAttachmentSchema,
  }),
};

export const skillsTopics = {
  /** The whole catalog after any change (a server became ready, its skills changed, an approval was given). */
  'skills.changed': SkillCatalogSchema,
};
