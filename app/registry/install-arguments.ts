import type { InstallField } from '../../shared/contract/registry';
import { inputFields, resolveInput, type Answers } from './install-fields';
import type { RegistryArgument } from './server-json';

/**
 * A named argument that asks nothing — no value, default, choices, format,
 * description or placeholder — is a bare flag (`--rm`, `-i`): it goes on the
 * command line as written. (Asking the person for the "value" of `--rm`, and
 * dropping the flag when they leave it empty, changed what the entry runs.)
 */
export function isBareFlag(arg: RegistryArgument): boolean {
  if (arg.type !== 'named') return false;
  if (arg.value !== undefined) return arg.value === '';
  return (
    arg.default === undefined &&
    arg.choices === undefined &&
    arg.format === undefined &&
    arg.description === undefined &&
    arg.placeholder === undefined &&
    arg.isRequired !== true &&
    arg.isSecret !== true
  );
}

/**
 * One value per line: how the form takes an argument the entry marks
 * `isRepeated`. One whose value is a template (`src={source}`) is given once:
 * its variables are single fields.
 */
function isRepeatedInput(arg: RegistryArgument): boolean {
  return arg.isRepeated === true && arg.value === undefined;
}

function argumentLabel(arg: RegistryArgument, index: number): string {
  return arg.type === 'named' ? arg.name : (arg.valueHint ?? `argument ${index + 1}`);
}

/** The form fields of a runtime or package argument list, in the entry's order; bare flags ask nothing. */
export function argumentFields(
  args: readonly RegistryArgument[] | undefined,
  where: 'runtime' | 'package',
): InstallField[] {
  return (args ?? []).flatMap((arg, index) => {
    if (isBareFlag(arg)) return [];
    const fields = inputFields(`arg:${where}:${index}`, arg, { kind: 'argument', label: argumentLabel(arg, index) });
    return isRepeatedInput(arg) ? fields.map((field) => ({ ...field, repeated: true })) : fields;
  });
}

/** The values of a repeated argument: each line of the answer, checked on its own. */
function repeatedValues(id: string, arg: RegistryArgument, label: string, answers: Answers): string[] {
  const lines = (answers.values[id] ?? '')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
  // No line at all is checked as an empty answer: the default applies, or "Enter …" when required.
  return (lines.length === 0 ? [''] : lines).flatMap((line) => {
    const value = resolveInput(id, arg, label, { values: { [id]: line }, errors: answers.errors });
    return value === undefined ? [] : [value];
  });
}

/**
 * The argv of an argument list with the person's answers, in the entry's
 * order: positional values where they stand, `name value` for a named one,
 * a bare flag alone, and a repeated argument once per value.
 */
export function argumentValues(
  args: readonly RegistryArgument[] | undefined,
  where: 'runtime' | 'package',
  answers: Answers,
): string[] {
  return (args ?? []).flatMap((arg, index) => {
    if (arg.type === 'named' && isBareFlag(arg)) return [arg.name];
    const id = `arg:${where}:${index}`;
    const label = argumentLabel(arg, index);
    const values = isRepeatedInput(arg)
      ? repeatedValues(id, arg, label, answers)
      : [resolveInput(id, arg, label, answers)].flatMap((value) => (value === undefined ? [] : [value]));
    // A named argument fixed to "" is a bare flag (`--verbose`).
    return values.flatMap((value) =>
      arg.type === 'named' ? (value === '' ? [arg.name] : [arg.name, value]) : [value],
    );
  });
}

/**
 * `docker run` for an image. Entries written for other hosts often start
 * their runtime arguments with docker's own `run -i --rm`: those are taken
 * as given, never doubled — a second `run` would be read as the image name.
 * `-e NAME` without a value: docker passes the variable from its own
 * environment, so no value is on its command line.
 */
export function dockerRunArgs(
  runtimeArgs: readonly string[],
  envKeys: readonly string[],
  image: string,
  packageArgs: readonly string[],
): string[] {
  const given = runtimeArgs[0] === 'run' ? runtimeArgs.slice(1) : [...runtimeArgs];
  const interactive = given.some((arg) => arg === '-i' || arg === '--interactive' || arg === '--interactive=true')
    ? []
    : ['-i'];
  const remove = given.some((arg) => arg === '--rm' || arg === '--rm=true') ? [] : ['--rm'];
  return ['run', ...interactive, ...remove, ...given, ...envKeys.flatMap((key) => ['-e', key]), image, ...packageArgs];
}
