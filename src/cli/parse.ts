import { InvalidArgumentError } from 'commander';

// Flag parsers shared by every command: a bad value is a usage error naming the flag.

export function intFlag(min: number, max: number) {
  return (value: string): number => {
    if (!/^-?\d+$/.test(value)) throw new InvalidArgumentError(`expected a whole number, got "${value}".`);
    const n = Number(value);
    if (n < min || n > max) throw new InvalidArgumentError(`expected a number from ${min} to ${max}, got ${n}.`);
    return n;
  };
}

export function choiceFlag<T extends string>(choices: readonly T[]) {
  return (value: string): T => {
    if (!choices.includes(value as T)) throw new InvalidArgumentError(`expected one of ${choices.join(', ')}, got "${value}".`);
    return value as T;
  };
}

export function wrapParser<T>(parse: (value: string) => T) {
  return (value: string): T => {
    try {
      return parse(value);
    } catch (err) {
      throw new InvalidArgumentError((err as Error).message);
    }
  };
}
