/**
 * Colour only on a terminal, as eslint and ruff do. `FORCE_COLOR` (any value but `0` or `false`) turns it on
 * even in a pipe and wins over `NO_COLOR` (as in Node itself); a non-empty `NO_COLOR` turns it off.
 */

export interface Paint {
  readonly bold: (s: string) => string;
  readonly dim: (s: string) => string;
  readonly red: (s: string) => string;
  readonly yellow: (s: string) => string;
  readonly blue: (s: string) => string;
  readonly green: (s: string) => string;
}

export function wantsColour(env: NodeJS.ProcessEnv, isTTY: boolean): boolean {
  const force = env.FORCE_COLOR;
  if (force !== undefined) return force !== '0' && force !== 'false';
  if (env.NO_COLOR) return false;
  return isTTY;
}

const sgr = (open: number, close: number) => (s: string) => `\x1b[${open}m${s}\x1b[${close}m`;
const plain = (s: string) => s;

export function paint(colour: boolean): Paint {
  if (!colour) return { bold: plain, dim: plain, red: plain, yellow: plain, blue: plain, green: plain };
  return {
    bold: sgr(1, 22),
    dim: sgr(2, 22),
    red: sgr(31, 39),
    yellow: sgr(33, 39),
    blue: sgr(34, 39),
    green: sgr(32, 39),
  };
}
