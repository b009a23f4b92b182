import type { z } from 'zod';

/** One bridge method: the input the renderer sends and the value the host answers. */
export interface MethodSpec<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  input: I;
  output: O;
  /** One line for ARCHITECTURE.md and error messages. */
  summary: string;
}

export function method<I extends z.ZodType, O extends z.ZodType>(spec: MethodSpec<I, O>): MethodSpec<I, O> {
  return spec;
}
