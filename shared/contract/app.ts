import { z } from 'zod';
import { AppInfoSchema, ConfigStatusSchema } from '../domain/config';
import { method } from './define';

export const appMethods = {
  'app.info': method({
    summary: 'Version, shell and where config and logs live.',
    input: z.object({}).strict(),
    output: AppInfoSchema,
  }),
  'config.status': method({
    summary: 'Whether the config file loaded, and what is wrong with it if not.',
    input: z.object({}).strict(),
    output: ConfigStatusSchema,
  }),
  'config.saveText': method({
    summary: 'Replace the config file with fixed text; refused (file untouched) unless it is valid.',
    input: z.object({ text: z.string().max(5_000_000) }).strict(),
    output: ConfigStatusSchema,
  }),
};

export const appTopics = {
  /** The config file was loaded, fixed or found invalid. */
  'config.changed': ConfigStatusSchema,
};
