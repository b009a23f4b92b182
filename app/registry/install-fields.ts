import type { InstallField } from '../../shared/contract/registry';
import type { RegistryInput } from './server-json';

/** An input with its variables (`{name}` in its value), as env vars, headers and arguments carry them. */
export interface TemplatedInput extends RegistryInput {
  variables?: Record<string, RegistryInput> | undefined;
}

export interface FieldContext {
  kind: InstallField['kind'];
  label: string;
}

/** One value the person gives for an input; undefined when the input is fixed by the entry. */
function field(id: string, input: RegistryInput, context: FieldContext, secret: boolean): InstallField {
  const out: InstallField = {
    id,
    label: context.label,
    kind: context.kind,
    required: input.isRequired === true,
    secret: secret || input.isSecret === true,
    format: input.format ?? 'string',
  };
  if (input.description !== undefined) out.description = input.description;
  if (input.choices !== undefined && input.choices.length > 0) out.choices = [...input.choices];
  if (input.default !== undefined) out.default = input.default;
  if (input.placeholder !== undefined) out.placeholder = input.placeholder;
  return out;
}

function variableNames(value: string): string[] {
  return [...value.matchAll(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g)].flatMap((match) =>
    match[1] === undefined ? [] : [match[1]],
  );
}

/**
 * The form fields an input needs: none when the entry fixes its value, one
 * per variable when the value is a template (`Bearer {token}`), else one for
 * the value itself. A variable's field is secret when the whole value is.
 */
export function inputFields(id: string, input: TemplatedInput, context: FieldContext): InstallField[] {
  if (input.value === undefined) return [field(id, input, context, false)];
  const fields: InstallField[] = [];
  for (const name of new Set(variableNames(input.value))) {
    const variable = input.variables?.[name];
    // A `{name}` with no variable stays as written (the schema says so).
    if (variable === undefined) continue;
    fields.push(
      field(
        `${id}:var:${name}`,
        variable,
        { kind: context.kind, label: `${context.label} · ${name}` },
        input.isSecret === true,
      ),
    );
  }
  return fields;
}

/** Is a value secret: the input says so, or one of the variables it uses does. */
export function isSecretInput(input: TemplatedInput): boolean {
  if (input.isSecret === true) return true;
  if (input.value === undefined) return false;
  return variableNames(input.value).some((name) => input.variables?.[name]?.isSecret === true);
}

export interface Answers {
  values: Readonly<Record<string, string>>;
  errors: { field: string; message: string }[];
}

/** The person's answer for one field, checked against its required flag, choices and format; undefined when left empty. */
function answer(id: string, input: RegistryInput, label: string, answers: Answers): string | undefined {
  const given = answers.values[id];
  const value = given === undefined || given === '' ? input.default : given;
  if (value === undefined || value === '') {
    if (input.isRequired === true) answers.errors.push({ field: id, message: `Enter ${label}` });
    return undefined;
  }
  if (input.choices !== undefined && input.choices.length > 0 && !input.choices.includes(value)) {
    answers.errors.push({ field: id, message: `Choose one of: ${input.choices.join(', ')}` });
    return undefined;
  }
  if (input.format === 'number' && !/^-?\d+(\.\d+)?$/.test(value)) {
    answers.errors.push({ field: id, message: `${label} must be a number` });
    return undefined;
  }
  if (input.format === 'boolean' && value !== 'true' && value !== 'false') {
    answers.errors.push({ field: id, message: `${label} must be true or false` });
    return undefined;
  }
  return value;
}

/**
 * The value an input resolves to with the person's answers, or undefined when
 * an optional one was left empty. Missing required answers are added to
 * `answers.errors`. `encode` is applied to variable values (URL templates).
 */
export function resolveInput(
  id: string,
  input: TemplatedInput,
  label: string,
  answers: Answers,
  encode: (value: string) => string = (value) => value,
): string | undefined {
  if (input.value === undefined) return answer(id, input, label, answers);
  let missing = false;
  const resolved = input.value.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (whole, name: string) => {
    const variable = input.variables?.[name];
    if (variable === undefined) return whole;
    const value = answer(`${id}:var:${name}`, variable, `${label} · ${name}`, answers);
    if (value === undefined) {
      missing = true;
      return '';
    }
    return encode(value);
  });
  return missing ? undefined : resolved;
}
